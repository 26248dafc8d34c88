"""``python -m tests.golden`` rewrites the golden transcripts."""

from tests.golden import HERE, write_all

for written in write_all():
    print(written.relative_to(HERE.parent.parent))
