"""Times pdfplumber's extract_text alone over the given PDFs, for the extraction benchmark.

Prints one JSON object: {"per_file_ms": {name: median ms}, "median_ms": float}.
Run by `cargo xtask bench extract` inside a throwaway virtualenv.
"""
import json
import statistics
import sys
import time

import pdfplumber


def time_file(path, repeats):
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        with pdfplumber.open(path) as pdf:
            for page in pdf.pages:
                page.extract_text()
        samples.append((time.perf_counter() - start) * 1000.0)
    return statistics.median(samples)


def main():
    repeats = int(sys.argv[1])
    per_file = {path.rsplit("/", 1)[-1]: time_file(path, repeats) for path in sys.argv[2:]}
    print(json.dumps({"per_file_ms": per_file, "median_ms": statistics.median(per_file.values())}))


if __name__ == "__main__":
    main()
