"""Median ms per image for the Python RapidOCR pipeline (PP-OCRv4 on onnxruntime), the peer of
`cargo xtask bench ocr`. Usage: rapidocr_bench.py THREADS IMAGE... Prints one JSON line."""
import json
import statistics
import sys
import time

import onnxruntime
from rapidocr_onnxruntime import RapidOCR

threads = int(sys.argv[1])
# The same work as the engine: detection and recognition, no angle classifier.
engine = RapidOCR(intra_op_num_threads=threads, inter_op_num_threads=1)
times = []
for path in sys.argv[2:]:
    start = time.perf_counter()
    engine(path, use_cls=False)
    times.append((time.perf_counter() - start) * 1000)
print(json.dumps({"threads": threads, "median_ms": statistics.median(times), "images": len(times), "onnxruntime": onnxruntime.__version__}))
