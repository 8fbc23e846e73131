"""`hangtag-inspect load`: an open-loop load generator for `serve` (constant arrival rate, honest latencies)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("load", help="send images to a running service at a constant rate and report latency")
    parser.add_argument("--url", default="http://127.0.0.1:8080/detect", help="endpoint to POST to")
    parser.add_argument("--rate", type=float, required=True, help="requests per second, sent on schedule")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of sending")
    parser.add_argument("--images", type=Path, required=True, help="folder of JPEG/PNG files, sent in turn")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds before an unanswered request counts as code 0")
    parser.add_argument("--rss-every", type=float, default=0.0,
                        help="sample the server's RSS from /metrics every this many seconds (0 = off)")
    parser.add_argument("--client", choices=("aiohttp", "httpx"), default="aiohttp",
                        help="HTTP client that sends (aiohttp: less CPU per request, the default; httpx: the earlier one)")
    parser.add_argument("--out", type=Path, default=None, help="also write the summary JSON here")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import asyncio

    from inference.service.loadgen import load_bodies, run_load

    bodies = load_bodies(args.images)
    report = asyncio.run(run_load(args.url, args.rate, args.duration, bodies, timeout_s=args.timeout,
                                  rss_every_s=args.rss_every, client=args.client))
    summary = {"url": args.url, "client": args.client, **report.summary()}
    text = json.dumps(summary, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0
