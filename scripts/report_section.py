"""Writes a marked section into docs/benchmarks.md (imported by callgrind.sh and bench-objc.sh).

The benchmark CLI rewrites the page and keeps every marked section (Markdown.keptSections), after
its summary; a tool that publishes a section puts it in the same place.
"""


def place(report, begin, end, section, after=()):
    """Writes `section` (which starts with `begin` and ends with `end` and a newline) into the
    file `report`: in place of its previous version; else right after the first of the markers
    `after` the page has; else before the performance bars; else at the end."""
    try:
        text = open(report).read()
    except FileNotFoundError:
        text = "# Benchmark results\n"
    marker = next((m for m in after if m in text), None)
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        tail = rest.split(end, 1)[1].lstrip("\n")
        text = head + section + ("\n" + tail if tail else "")
    elif marker:
        head, tail = text.split(marker, 1)
        text = head + marker + "\n\n" + section + "\n" + tail.lstrip("\n")
    elif "\n## Performance bars" in text:
        head, tail = text.split("\n## Performance bars", 1)
        text = head.rstrip("\n") + "\n\n" + section + "\n## Performance bars" + tail
    else:
        text = text.rstrip("\n") + "\n\n" + section
    open(report, "w").write(text)
