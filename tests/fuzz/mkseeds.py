#!/usr/bin/env python3
"""Write the binary seeds of fold's fuzz targets into tests/fuzz/corpus/.

    python3 tests/fuzz/mkseeds.py

The seeds are committed; this script says how each was made, and makes
them again (byte for byte) if a format changes. multiboot: an information
block like GRUB's for `make run` (command line, loader name, two modules,
a QEMU -m 256M memory map, both RSDPs). acpi: QEMU pc's table layout (an
RSDP pointing at an RSDT and an XSDT, a FACP before the MADT, a MADT with
two local APICs, an I/O APIC, interrupt overrides, a NMI entry), one
with x2APIC entries, and one with a full FADT and a DSDT declaring \_S5. elf: a static x86-64 executable with a text and a
data segment and a PT_GNU_STACK, the shape user/user.mk's linker script
gives. The fuzz targets fix checksums up themselves; these are correct
anyway.
"""

import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
PHYS = 0x07FE0000                     # tests/fuzz/fuzz_acpi.c's FUZZ_PHYS


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# ---- multiboot2 ----------------------------------------------------------

def tag(type_, body):
    t = struct.pack("<II", type_, 8 + len(body)) + body
    return t + b"\0" * (-len(t) % 8)


def rsdp(rev, rsdt=PHYS + 0x40, xsdt=PHYS + 0x80):
    r = bytearray(b"RSD PTR " + b"\0" + b"BOCHS " + bytes([rev]) +
                  struct.pack("<I", rsdt))
    r[8] = -sum(r) & 0xFF
    if rev >= 2:
        r += struct.pack("<IQ", 36, xsdt) + b"\0" * 4
        r[32] = -sum(r) & 0xFF
    return bytes(r)


def multiboot():
    mmap = [(0, 0x9FC00, 1), (0x9FC00, 0x400, 2), (0xF0000, 0x10000, 2),
            (0x100000, 0xFEE0000, 1), (0xFFE0000, 0x20000, 2),
            (0xFFFC0000, 0x40000, 2)]
    entries = b"".join(struct.pack("<QQII", b, n, t, 0) for b, n, t in mmap)
    tags = (tag(1, b"test=all hz=1000\0") + tag(2, b"GRUB 2.06-13+deb12u1\0") +
            tag(3, struct.pack("<II", 0x200000, 0x203000) + b"hello /boot/user/hello\0") +
            tag(3, struct.pack("<II", 0x204000, 0x204800) + b"  spin\0") +
            tag(6, struct.pack("<II", 24, 0) + entries) +
            tag(14, rsdp(0)) + tag(15, rsdp(2)) + tag(0, b""))
    return struct.pack("<II", 8 + len(tags), 0) + tags


def multiboot_efi(low_reserved):
    """GRUB under OVMF (q35, 256M): the map as fold printed it, no modules.
    low_reserved: the firmware keeps 0x8000 (the BIOS trampoline page), so
    mb_low_page() must look further."""
    low = ([(0, 0x8000, 1), (0x8000, 0x1000, 2), (0x9000, 0x97000, 1)]
           if low_reserved else [(0, 0xA0000, 1)])
    mmap = low + [(0x100000, 0x706000, 1), (0x806000, 0x2000, 4),
                  (0x808000, 0x8000, 1), (0x810000, 0xF0000, 4),
                  (0x900000, 0xE1A0000, 1), (0xEAA0000, 0x102000, 2),
                  (0xF5EC000, 0x100000, 20), (0xF76C000, 0x12000, 3),
                  (0xF7FE000, 0x6F6000, 1), (0xB0000000, 0x10000000, 2)]
    entries = b"".join(struct.pack("<QQII", b, n, t, 0) for b, n, t in mmap)
    tags = (tag(1, b"test=all\0") + tag(2, b"GRUB 2.06-13+deb12u2\0") +
            tag(6, struct.pack("<II", 24, 0) + entries) +
            tag(14, rsdp(0)) + tag(15, rsdp(2)) + tag(0, b""))
    return struct.pack("<II", 8 + len(tags), 0) + tags


# ---- ACPI ----------------------------------------------------------------

def sdt(sig, body, rev=1):
    h = bytearray(sig + struct.pack("<IBB", 36 + len(body), rev, 0) +
                  b"BOCHS BXPC    " + struct.pack("<III", 1, 0x43505842, 1))
    t = h + body
    t[9] = -sum(t) & 0xFF
    return bytes(t)


def madt(x2apic):
    body = struct.pack("<II", 0xFEE00000, 1)
    for i in range(2):
        if x2apic:
            body += struct.pack("<BBHIII", 9, 16, 0, i, 1, i)
        else:
            body += struct.pack("<BBBBI", 0, 8, i, i, 1)
    body += struct.pack("<BBBBII", 1, 12, 0, 0, 0xFEC00000, 0)
    for irq, gsi, flags in ((0, 2, 0), (5, 5, 0xD), (9, 9, 0xD), (10, 10, 0xD), (11, 11, 0xD)):
        body += struct.pack("<BBBBIH", 2, 10, 0, irq, gsi, flags)
    body += struct.pack("<BBBHB", 4, 6, 0xFF, 0, 1)   # local APIC NMI, LINT1
    if x2apic:
        body += struct.pack("<BBHQ", 5, 12, 0, 0xFEE00000)  # address override
    return sdt(b"APIC", body, 3)


def acpi(x2apic):
    # PHYS+0x00 FACP, +0x40 RSDT, +0x80 XSDT, +0x100 MADT
    facp = sdt(b"FACP", b"\0" * 40)
    mem = bytearray(0x100)
    mem[0:len(facp)] = facp
    rsdt = sdt(b"RSDT", struct.pack("<II", PHYS, PHYS + 0x100))
    xsdt = sdt(b"XSDT", struct.pack("<QQ", PHYS, PHYS + 0x100))
    mem[0x40:0x40 + len(rsdt)] = rsdt
    mem[0x80:0x80 + len(xsdt)] = xsdt
    return rsdp(2) + bytes(mem) + madt(x2apic)


def acpi_s5():
    # QEMU pc's power-off path: PHYS+0x000 a FACP of ACPI 6 length (244)
    # pointing at the DSDT, +0x100 RSDT, +0x140 XSDT, +0x180 DSDT with a
    # reference to _S5_ in a string before Name(_S5, Package(4){0,0,0,0}),
    # +0x300 MADT.
    body = bytearray(244 - 36)
    def put(off, fmt, *v):
        struct.pack_into(fmt, body, off - 36, *v)
    put(40, "<I", PHYS + 0x180)          # DSDT
    put(46, "<H", 9)                     # SCI_INT
    put(48, "<IBB", 0xB2, 0xF1, 0xF0)    # SMI_CMD, ACPI_ENABLE, ACPI_DISABLE
    put(56, "<II", 0x600, 0)             # PM1a_EVT_BLK, PM1b_EVT_BLK
    put(64, "<II", 0x604, 0)             # PM1a_CNT_BLK, PM1b_CNT_BLK
    facp = sdt(b"FACP", bytes(body), 5)
    aml = (b"\x0d_S5_\x00" +
           b"\x08_S4_\x12\x06\x04\x00\x00\x00\x00" +
           b"\x08_S5_\x12\x06\x04\x00\x00\x00\x00")
    dsdt = sdt(b"DSDT", aml, 1)
    mem = bytearray(0x300)
    mem[0:len(facp)] = facp
    rsdt = sdt(b"RSDT", struct.pack("<II", PHYS, PHYS + 0x300))
    xsdt = sdt(b"XSDT", struct.pack("<QQ", PHYS, PHYS + 0x300))
    mem[0x100:0x100 + len(rsdt)] = rsdt
    mem[0x140:0x140 + len(xsdt)] = xsdt
    mem[0x180:0x180 + len(dsdt)] = dsdt
    return rsdp(2, PHYS + 0x100, PHYS + 0x140) + bytes(mem) + madt(False)


# ---- ELF -----------------------------------------------------------------

def elf():
    base = 0x400000
    text = b"\x48\xc7\xc0\x27\x00\x00\x00\x0f\x05\xeb\xfe"   # getpid; jmp .
    data = b"fold\0\0\0\0"
    phnum, ehsize, phsize = 3, 64, 56
    eh = struct.pack("<4sBBBBB7sHHIQQQIHHHHHH", b"\x7fELF", 2, 1, 1, 0, 0, b"\0" * 7,
                     2, 62, 1, base + 0x1000, ehsize, 0, 0, ehsize, phsize, phnum, 64, 0, 0)
    # The file offsets follow the headers (a linker would put the text at
    # 0x1000: 3.8 KiB of zeros in a seed). Text R+X, data R+W with bss.
    text_off = ehsize + phnum * phsize
    data_off = text_off + len(text)
    ph = struct.pack("<IIQQQQQQ", 1, 5, text_off, base + 0x1000, base + 0x1000,
                     len(text), len(text), 0x1000)
    ph += struct.pack("<IIQQQQQQ", 1, 6, data_off, base + 0x2000, 0, len(data), 0x2000, 0x1000)
    ph += struct.pack("<IIQQQQQQ", 0x6474E551, 6, 0, 0, 0, 0, 0, 16)
    return eh + ph + text + data


def main():
    write("multiboot", "grub-run", multiboot())
    write("multiboot", "grub-efi-run", multiboot_efi(False))
    write("multiboot", "efi-low-reserved", multiboot_efi(True))
    write("acpi", "qemu-pc", acpi(False))
    write("acpi", "x2apic", acpi(True))
    write("acpi", "qemu-pc-s5", acpi_s5())
    write("elf", "static", elf())


if __name__ == "__main__":
    main()
