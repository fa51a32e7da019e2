"""Plots of a benchmark run, drawn by gnuplot as PNG and SVG.

    latency-smp<N>-<load>-<mode>.{png,svg}  wake-up latency histograms: one
        line per count model, counts summed over the CPUs, log scale
    throughput-smp<N>.{png,svg}  preempt_heavy ns per operation (CPU 0):
        a group of bars per count model, one bar per preemption mode

The data (.dat) and the gnuplot script (plots.gp, absolute paths) stay in
<out>/plots/, so a plot can be restyled and redrawn with
`gnuplot <out>/plots/plots.gp`.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import benchlib
import report

SIZE = (960, 560)
MAX_BARS = 100


def png_terminal(gnuplot: str) -> str:
    """pngcairo when this gnuplot has it (gnuplot-nox does), else libgd png."""
    try:
        p = subprocess.run([gnuplot, "-e", "set terminal pngcairo"],
                           stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return "png"
    return "pngcairo" if p.returncode == 0 and not p.stderr.strip() else "png"


def _q(text: str) -> str:
    """A gnuplot double-quoted string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _terminals(png: str) -> list[tuple[str, str]]:
    w, h = SIZE
    font = ' font "sans,10"' if png == "pngcairo" else ""
    return [("png", f"set terminal {png} size {w},{h} noenhanced{font}"),
            ("svg", f"set terminal svg size {w},{h} dynamic noenhanced "
                    'font "sans,11" background "white"')]


def histograms(run: report.Run, smp: int, load: str, mode: str):
    """{model: (bucket_us, counts summed over CPUs, overflow)} for one plot."""
    out = {}
    for model in run.models:
        rows = benchlib.find(run.results.get((model, mode, smp), []),
                             "latency_hist", load=load)
        if not rows:
            continue
        width = rows[0].get("bucket_us")
        total: list[int] = []
        overflow = 0
        for r in rows:
            counts = r.get("counts")
            if not isinstance(counts, list):
                continue
            total += [0] * (len(counts) - len(total))
            for i, c in enumerate(counts):
                total[i] += c
            overflow += r.get("overflow", 0)
        out[model] = (width, total, overflow)
    return out


def plan(data: dict, plotdir: str, outdir: str, png: str):
    """Write the .dat files; return (gnuplot script, image base names)."""
    run = report.Run(data)
    clock = report.clock_label(data)
    unit = report.unit(data)
    script = ["# fold benchmark plots: gnuplot " + os.path.join(plotdir,
                                                                "plots.gp"),
              'set datafile missing "?"', "set grid ytics"]
    names = []

    def emit(name: str, body: list[str]) -> None:
        names.append(name)
        for ext, term in _terminals(png):
            script.append(term)
            script.append(f"set output {_q(os.path.join(outdir, name + '.' + ext))}")
            script.extend(body)
        script.append("unset output")
        script.append("reset")
        script.append('set datafile missing "?"')
        script.append("set grid ytics")

    loads = []
    for res in run.results.values():
        for r in res:
            if r.bench == "latency_hist" and r.fields["load"] not in loads:
                loads.append(r.fields["load"])
    for smp in run.smps:
        for load in loads:
            for mode in run.modes:
                hists = histograms(run, smp, load, mode)
                if not hists:
                    continue
                models = list(hists)
                width = next(iter(hists.values()))[0] or 1
                n = max(len(h[1]) for h in hists.values())
                # At most ~100 bars: merge buckets of a wide histogram.
                merge = -(-n // MAX_BARS) if n > MAX_BARS * 6 // 5 else 1
                if merge > 1:
                    hists = {m: (w, [sum(c[i:i + merge])
                                     for i in range(0, len(c), merge)], ov)
                             for m, (w, c, ov) in hists.items()}
                    width *= merge
                    n = max(len(h[1]) for h in hists.values())
                name = f"latency-smp{smp}-{load}-{mode}"
                dat = os.path.join(plotdir, name + ".dat")
                with open(dat, "w") as f:
                    f.write("# bucket_start_us " + " ".join(models) + "\n")
                    for i in range(n + 1):     # a last row closes the steps
                        cells = [str(hists[m][1][i]) if i < len(hists[m][1])
                                 else "0" for m in models]
                        f.write(f"{i * width} " + " ".join(cells) + "\n")
                titles = []
                for m in models:
                    ov = hists[m][2]
                    titles.append(m + (f" ({ov} past the last bucket)"
                                       if ov else ""))
                body = [
                    f"set title {_q(f'wake-up latency, load={load}, mode={mode}, smp={smp} (all CPUs) - clock: {clock}')}",
                    f"set xlabel {_q(f'latency (us, buckets of {width} us)' + (' = thousands of instructions' if data['clock'] == 'icount' else ''))}",
                    'set ylabel "wake-ups (log scale)"',
                    "set logscale y", "set yrange [0.5:*]", "set key below",
                    "plot " + ", ".join(
                        f"{_q(dat)} using 1:(column({i + 2}) > 0 ? "
                        f"column({i + 2}) : 0.5) with steps lw 2 "
                        f"title {_q(t)}" for i, t in enumerate(titles)),
                ]
                emit(name, body)

    for smp in run.smps:
        values = {(m, md): run.value(m, md, smp, "throughput", "ns_per_op",
                                     test="preempt_heavy")
                  for m in run.models for md in run.modes}
        if all(v is None for v in values.values()):
            continue
        name = f"throughput-smp{smp}"
        dat = os.path.join(plotdir, name + ".dat")
        with open(dat, "w") as f:
            f.write("# model " + " ".join(run.modes) + "\n")
            for m in run.models:
                f.write(m + " " + " ".join(
                    "?" if values[(m, md)] is None else str(values[(m, md)])
                    for md in run.modes) + "\n")
        body = [
            f"set title {_q(f'preempt_heavy: ns per operation (CPU 0), smp={smp}, lower is better - clock: {clock}')}",
            f"set ylabel {_q(f'ns per operation ({unit})')}",
            "set style data histogram",
            "set style histogram cluster gap 1",
            "set style fill solid 0.8 border -1",
            "set boxwidth 0.9", "set yrange [0:*]", "set key top left",
            "plot " + ", ".join(
                f"{_q(dat)} using {i + 2}" + (":xtic(1)" if i == 0 else "")
                + f" title {_q('mode ' + md)}"
                for i, md in enumerate(run.modes)),
        ]
        emit(name, body)
    return script, names


def draw(data: dict, outdir: str, gnuplot: str = "gnuplot"):
    """Draw every plot into outdir. Returns (image file names relative to
    outdir, warnings)."""
    plotdir = os.path.join(outdir, "plots")
    os.makedirs(plotdir, exist_ok=True)
    exe = shutil.which(gnuplot)
    png = png_terminal(exe) if exe else "pngcairo"
    script, names = plan(data, plotdir, outdir, png)
    path = os.path.join(plotdir, "plots.gp")
    with open(path, "w") as f:
        f.write("\n".join(script) + "\n")
    if not names:
        return [], ["no plots: no latency histogram or throughput figure"]
    if not exe:
        return [], [f"no plots: {gnuplot} is not installed (Debian: apt-get "
                    f"install gnuplot-nox); the script is {path}"]
    for name in names:                  # never show a stale image
        for ext in ("png", "svg"):
            try:
                os.remove(os.path.join(outdir, f"{name}.{ext}"))
            except FileNotFoundError:
                pass
    try:
        p = subprocess.run([exe, path], stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        return [], [f"gnuplot failed: {e}"]
    warnings = []
    if p.returncode != 0:
        warnings.append(f"gnuplot exit status {p.returncode} on {path}: "
                        + " | ".join(p.stderr.strip().splitlines()[-5:]))
    files = []
    for name in names:
        for ext in ("png", "svg"):
            f = f"{name}.{ext}"
            if os.path.exists(os.path.join(outdir, f)) and \
                    os.path.getsize(os.path.join(outdir, f)) > 0:
                files.append(f)
            else:
                warnings.append(f"gnuplot did not write {f}")
    if png != "pngcairo":
        warnings.append("gnuplot has no pngcairo terminal: PNGs drawn with "
                        "the libgd png terminal")
    return files, warnings
