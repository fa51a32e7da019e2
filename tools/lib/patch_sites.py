"""The patch sites of a fold ELF and of a running kernel's `sites` dump.

read_sites(elf, offsets) reads the .patch_sites records (struct patch_site,
arch/x86_64/kernel/patch_site.h, laid out as asm-offsets exported them in
fold_offsets.py) and the bytes each site holds as linked; parse_dumps()
reads the lines the shell's `sites` command prints (shell/shell_cmds.c).
tests/check-disasm uses both.
"""

import re
import struct
import subprocess

NOP5 = bytes.fromhex("0f1f440000")
JMP = 0xE9


class Site:
    """modes: the bit set of the modes a mode site is on in; key: 0, or the
    static key (kernel/static_key.h) a key site follows (then modes is 0)."""
    def __init__(self, name, addr, target, modes, linked, where, func, on_text, key=0):
        self.name, self.addr, self.target, self.modes = name, addr, target, modes
        self.key = key
        self.linked, self.where, self.func, self.on_text = linked, where, func, on_text
        self.on = bytes([JMP]) + struct.pack("<i", target - (addr + 5))


def elf_sections(path):
    """[(addr, offset, size)] of the ELF64's allocated PROGBITS sections."""
    with open(path, "rb") as f:
        data = f.read()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    out = []
    for k in range(shnum):
        _, typ, flags, addr, off, size = struct.unpack_from("<IIQQQQ", data, shoff + k * shentsize)
        if typ == 1 and flags & 2:
            out.append((addr, off, size))
    return data, out


def elf_read(elf, addr, n):
    data, secs = elf
    for a, off, size in secs:
        if a <= addr and addr + n <= a + size:
            return data[off + addr - a:off + addr - a + n]
    raise ValueError("%x: not in the ELF's loaded sections" % addr)


def symbols(path):
    """({name: address}, [(start, size, name)] of the text symbols). NASM's
    symbols carry no size: theirs runs to the next text symbol."""
    out = subprocess.run(["nm", "-n", "-S", path], check=True, capture_output=True,
                         text=True).stdout
    syms, text = {}, []
    for line in out.splitlines():
        w = line.split()
        if len(w) >= 3:
            syms[w[-1]] = int(w[0], 16)
        if len(w) in (3, 4) and w[-2] in "tT":
            text.append((int(w[0], 16), int(w[1], 16) if len(w) == 4 else 0, w[-1]))
    funcs = []
    for k, (start, size, name) in enumerate(text):
        nxt = next((a for a, _, _ in text[k + 1:] if a > start), start + 1)
        funcs.append((start, size or nxt - start, name))
    return syms, funcs


def function_at(funcs, addr):
    for start, size, fname in funcs:
        if start <= addr < start + size:
            return fname, addr - start
    return "?", 0


def read_sites(path, offsets):
    """The .patch_sites records of an ELF (struct patch_site, with the
    layout asm-offsets exported)."""
    elf = elf_sections(path)
    syms, funcs = symbols(path)
    start, end = syms["_patch_sites_start"], syms["_patch_sites_end"]
    size = offsets["PATCH_SITE_size"]
    sites = []
    for rec in range(start, end, size):
        raw = elf_read(elf, rec, size)
        addr, = struct.unpack_from("<Q", raw, offsets["PATCH_SITE_addr"])
        target, = struct.unpack_from("<Q", raw, offsets["PATCH_SITE_target"])
        modes, = struct.unpack_from("<I", raw, offsets["PATCH_SITE_modes"])
        key, = struct.unpack_from("<I", raw, offsets["PATCH_SITE_key"])
        nptr, = struct.unpack_from("<Q", raw, offsets["PATCH_SITE_name"])
        sname = elf_read(elf, nptr, 64).split(b"\0")[0].decode()
        func, off = function_at(funcs, addr)
        tfunc, toff = function_at(funcs, target)
        sites.append(Site(sname, addr, target, modes, elf_read(elf, addr, 5),
                          "%s+%#x" % (func, off), func,
                          "jmp %x <%s+%#x>" % (target, tfunc, toff), key))
    return sites


SITE_LINE = re.compile(r"^site (\S+) ([0-9a-f]{16}) \S+: ((?:[0-9a-f]{2} ){5})")
DUMP_HEAD = re.compile(r"^sites: mode (\w+),")


def parse_dumps(lines):
    """{mode: {address: bytes}} from the `sites` dumps in a serial log."""
    dumps, cur = {}, None
    for line in lines:
        m = DUMP_HEAD.match(line)
        if m:
            cur = dumps.setdefault(m.group(1), {})
            continue
        m = SITE_LINE.match(line)
        if m and cur is not None:
            cur[int(m.group(2), 16)] = bytes.fromhex(m.group(3))
    return dumps
