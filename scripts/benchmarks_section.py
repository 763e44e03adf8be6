"""Helpers shared by the scripts that write a section of docs/benchmarks.md
(scripts/bench-report, scripts/broadphase-bench-report, scripts/rain-bench-report).

A script gives the text it generates for its section (the paragraphs with the command and the
date, and the table) and `write_section` puts it in place of the section's current text, from
its `## ` heading up to the next `## ` heading, leaving the rest of the file as it is. The
paragraphs that follow the section's first table and that the script does not write (notes by
hand, with figures from other commands) are kept as they are, below the generated text.

The scripts import this file with `PYTHONPATH=scripts`; it is not meant to be run.
"""

import datetime
import os
import re


def newest_date(paths):
    """The date of the newest of `paths` (criterion's estimates), as YYYY-MM-DD: the day the
    figures were measured, also when a script only rewrites the table from old results."""
    times = [os.path.getmtime(p) for p in paths if os.path.exists(p)]
    day = datetime.date.fromtimestamp(max(times)) if times else datetime.date.today()
    return day.isoformat()


def lock_version(root, package):
    """`major.minor` of `package` in the workspace's Cargo.lock, as the doc names its peers."""
    with open(os.path.join(root, "Cargo.lock")) as f:
        lock = f.read()
    m = re.search(r'^name = "%s"\nversion = "(\d+)\.(\d+)' % re.escape(package), lock, re.M)
    if not m:
        raise SystemExit(f"{package} is not in Cargo.lock")
    return f"{m.group(1)}.{m.group(2)}"


def _blocks(text):
    """The paragraphs and tables of `text`, split at blank lines."""
    return [b for b in re.split(r"\n[ \t]*\n", text.strip("\n")) if b.strip()]


def _is_table(block):
    return all(line.startswith("|") for line in block.splitlines())


def write_section(doc_path, heading, generated, owned=()):
    """Replaces the text of the section `## {heading}` of `doc_path` by `generated` (its text
    below the heading, a string or a list of lines), followed by the section's current
    paragraphs after its first table that do not start with one of `owned`. Exits with an
    error if the file has no such heading: the scripts write the sections the doc has."""
    if isinstance(generated, (list, tuple)):
        generated = "\n".join(generated)
    with open(doc_path) as f:
        doc = f.read()
    m = re.search(r"^## %s[ \t]*$" % re.escape(heading), doc, re.M)
    if not m:
        raise SystemExit(f'{doc_path} has no "## {heading}" section')
    nxt = re.search(r"^## ", doc[m.end():], re.M)
    end = m.end() + nxt.start() if nxt else len(doc)

    current = _blocks(doc[m.end():end])
    tables = [i for i, b in enumerate(current) if _is_table(b)]
    notes = current[tables[0] + 1:] if tables else []
    notes = [b for b in notes if not b.startswith(tuple(owned))]

    section = "\n\n".join([f"## {heading}", *_blocks(generated), *notes]) + "\n"
    if nxt:
        section += "\n"
    with open(doc_path, "w") as f:
        f.write(doc[:m.start()] + section + doc[end:])
    if notes:
        print(f"kept {len(notes)} paragraph(s) written by hand below the table of \"## {heading}\"")
