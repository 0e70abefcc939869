#!/usr/bin/env python3
# Rebuilds the two engine sections of README.md from docs/connect4-engine.md and
# docs/gomoku-engine.md (the engines are documented next to their code; the README
# carries the same text). Run from the repository root: python3 scripts/sync-readme.py
import re
readme = open('README.md').read()
def section(path, title):
    text = open(path).read().strip() + "\n"
    lines = text.splitlines()
    # first heading becomes "## title", deeper headings shift to ###
    out = []
    first = len(lines[0]) - len(lines[0].lstrip('#'))
    for i, l in enumerate(lines):
        level = len(l) - len(l.lstrip('#')) if l.startswith('#') else 0
        if i == 0:
            out.append('## ' + title)
        elif level:
            out.append('#' * (level - first + 2) + l[level:])
        else:
            out.append(l)
    return "\n".join(out) + "\n\n"
start = readme.index('## The Gomoku engine') if '## The Gomoku engine' in readme else readme.index('## Architecture')
if '## The Connect Four engine' in readme:
    start = min(start, readme.index('## The Connect Four engine'))
end = readme.index('## Architecture')
new = section('docs/connect4-engine.md', 'The Connect Four engine') + section('docs/gomoku-engine.md', 'The Gomoku engine')
readme = readme[:start] + new + readme[end:]
open('README.md', 'w').write(readme)
