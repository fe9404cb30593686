#!/bin/sh
# Writes assets/english/words.txt.gz, the English words similarity.Wordiness knows (lower case,
# letters only, one a line), from Debian's wamerican and wbritish (SCOWL's American and British
# English word lists: theses are written in either spelling), and assets/english/COPYRIGHT and
# VERSION from the packages. Needs: apt-get install wamerican wbritish.
set -e
cd "$(dirname "$0")/.."
for dict in /usr/share/dict/american-english /usr/share/dict/british-english; do
	[ -r "$dict" ] || { echo "english-words: $dict not found: apt-get install wamerican wbritish" >&2; exit 1; }
done
cat /usr/share/dict/american-english /usr/share/dict/british-english | LC_ALL=C sed -e "s/'s\$//" |
	LC_ALL=C grep -E '^[A-Za-z]+$' | tr 'A-Z' 'a-z' | LC_ALL=C sort -u | gzip -9n >assets/english/words.txt.gz
cp /usr/share/doc/wamerican/copyright assets/english/COPYRIGHT
dpkg-query -W -f='${Package} ${Version}\n' wamerican wbritish >assets/english/VERSION
