#!/bin/sh
# Word vectors for the dqn strategy's TXC feature (DinoDroid), built from Debian's packages only:
# DinoDroid trains 400-d Word2Vec on text8, which cannot be downloaded here. Instead fastText's
# skipgram (Debian's `fasttext`) is trained on WordNet (Debian's `wordnet-base`: ~117,000
# definitions, 1.5 million words of plain English, each after the words it defines, so a word
# that few definitions use, "bookmark", is still learnt from its own), the English strings of
# Android's framework (Debian's `android-framework-res`, read with `aapt`: "Navigate up",
# "Download", "Update", what the platform's own screens and dialogs say), and the texts of the
# shipped simulated apps and of apps from `roam sim generate` (UI words: "Save", "Settings").
# 100-d (the paper found 300 and 400 alike; 100 trains in a minute, 400 in three), words only
# (subwords took 7 minutes at 400-d and wrote a 3 GB model; unknown words get hash vectors),
# words seen three times or more, one thread and a fixed seed, so the same inputs give the same
# file byte for byte.
# Cached: nothing is trained again while the corpus and the settings are unchanged.
#
#   scripts/word_vectors.sh [BUILD_DIR]     (setup.sh runs it; writes BUILD_DIR/wordvec/vectors.vec)
set -eu
cd "$(dirname "$0")/.."
BUILD=${1:-build}
OUT="$BUILD/wordvec"
ROAM="$BUILD/roam"
SETTINGS="skipgram -dim 100 -epoch 5 -minCount 3 -minn 0 -maxn 0 -bucket 0 -thread 1 -seed 1"
mkdir -p "$OUT"
corpus="$OUT/corpus.txt"
tmp="$OUT/tmp"
rm -rf "$tmp"
mkdir -p "$tmp"

# WordNet: each synset's words (the w_cnt words after the first four fields, w_cnt in hex;
# "set_up" -> "set up", "(a)" markers dropped), then its gloss (the part after '|').
for part in noun verb adj adv; do
  awk -F'|' 'NF > 1 {
    split($1, f, " ")
    n = 0
    for (i = 1; i <= length(f[4]); i++) n = n * 16 + index("0123456789abcdef", substr(f[4], i, 1)) - 1
    words = ""
    for (i = 0; i < n; i++) words = words " " f[5 + 2 * i]
    gsub(/_/, " ", words)
    gsub(/\([a-z]+\)/, "", words)
    print words " " $2
  }' "/usr/share/wordnet/data.$part"
done >"$tmp/corpus"
# Android's own strings: the string resources of framework-res.apk in the default (English)
# configuration, one per line.
aapt dump --values resources /usr/share/android-framework-res/framework-res.apk |
  awk '/^      config /{ english = ($2 == "(default):") }
       /^        resource .* android:string\//{ take = english; next }
       take && /^ *\(string(8|16)\) "/{ sub(/^ *\(string(8|16)\) "/, ""); sub(/"$/, ""); print; take = 0 }' \
  >>"$tmp/corpus"
# The texts of the apps: shipped, test apps and generated ones (the generator's vocabulary;
# without the receivers of system broadcasts and the screens only intents reach, which came after
# the shipped dqn model was trained on these vectors).
i=1
while [ "$i" -le 20 ]; do
  "$ROAM" sim generate --seed "$((9000 + i))" --activities 30 --receiver-ratio 0 \
    --broadcast-bugs 0 --outside-ratio 0 --intent-bugs 0 --out "$tmp/gen$i.json" >/dev/null
  i=$((i + 1))
done
# (Not the property files of apps/bench/config: a user's checks, not an app's words.)
find apps tests/apps "$tmp" -name '*.json' ! -name '*.properties.json' | LC_ALL=C sort |
  while read -r f; do
    grep -oh '"\(text\|title\|hint\|message\|summary\|label\|name\)": *"[^"]*"' "$f" |
      sed 's/^"[a-z]*": *"//; s/"$//'
  done >>"$tmp/corpus"
# Lowercase words of letters and digits, camelCase split as the strategy splits labels.
sed 's/\([a-z]\)\([A-Z]\)/\1 \2/g' "$tmp/corpus" | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9]/ /g' >"$corpus"
rm -rf "$tmp"

stamp="$(cat "$corpus" | cksum) $SETTINGS"
if [ -f "$OUT/vectors.vec" ] && [ -f "$OUT/stamp" ] && [ "$(cat "$OUT/stamp")" = "$stamp" ]; then
  echo "word vectors: $OUT/vectors.vec is up to date"
  exit 0
fi
echo "word vectors: training fastText on $(wc -w <"$corpus") words (about a minute)"
# shellcheck disable=SC2086
fasttext $SETTINGS -input "$corpus" -output "$OUT/vectors" -verbose 0
rm -f "$OUT/vectors.bin"
echo "$stamp" >"$OUT/stamp"
echo "word vectors: $(head -1 "$OUT/vectors.vec" | cut -d' ' -f1) words in $OUT/vectors.vec"
