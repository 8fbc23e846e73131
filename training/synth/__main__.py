"""Write a synthetic dataset: `python -m training.synth --out DIR --count N --seed S --workers K`.

Image i uses seed S + i, so a dataset is the same bytes for any worker count, and sets made
from disjoint seed ranges never share a scene.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from training.synth.labels import read_scene_records, write_dataset_files, write_scene
from training.synth.scene import generate_scene


def _make(seed: int, imgsz: int, clean: bool, tag_px: int, domain: str = "classic", held_out: bool = False,
          classic_share: float = 0.0, no_tags: bool = False):
    if tag_px:
        from training.synth.cards import card_scene

        return card_scene(seed, tag_px)
    from training.synth.edge_cut import maybe_cut  # a share of scenes cropped so the frame's edge cuts a tag

    if domain == "wide":
        from training.synth.wide_scene import generate_wide_scene

        if held_out or no_tags or np.random.default_rng([seed, 1]).random() >= classic_share:
            return maybe_cut(generate_wide_scene(seed, imgsz, held_out=held_out, no_tags=no_tags))
    return maybe_cut(generate_scene(seed, imgsz, clean=clean))


def _work(out: str, seeds: list[int], imgsz: int, quality: int, clean: bool,
          skip_existing: bool = False, flat: bool = False, tag_px: int = 0, wide: tuple = ("classic", False, 0.0)
          ) -> list[tuple[dict, list[dict]]]:
    cv2.setNumThreads(1)
    results = []
    for s in seeds:
        stem = f"{s:09d}"
        if skip_existing and (Path(out) / "labels" / f"{stem}.txt").exists():
            results.append(read_scene_records(Path(out), stem))
        else:
            results.append(write_scene(Path(out), _make(s, imgsz, clean, tag_px, *wide), stem, quality, flat=flat))
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.synth", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0, help="first seed; image i uses seed + i")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--imgsz", type=int, default=640, help="long side of each image in pixels")
    parser.add_argument("--quality", type=int, default=90, help="JPEG quality of the written images")
    parser.add_argument("--chunk", type=int, default=50, help="images per task handed to a worker")
    parser.add_argument("--clean", action="store_true", help="flat cloth, no distractors or camera effects")
    parser.add_argument("--skip-existing", action="store_true", help="keep images already written (resume)")
    parser.add_argument("--flat", action="store_true", help="images in --out itself, not --out/images (demo folders)")
    parser.add_argument("--cards", action="store_true",
                        help="one flat front-side card per image, ~--tag-px high, turned (seed %% 4) x 90° (read-bench)")
    parser.add_argument("--tag-px", type=int, default=570, help="--cards: height of the tag in pixels")
    parser.add_argument("--domain", choices=("classic", "wide"), default="classic",
                        help="classic: the first model's scenes; wide: many designs, surfaces and hard negatives")
    parser.add_argument("--held-out", action="store_true", help="--domain wide: only the held-out designs, one per scene")
    parser.add_argument("--no-tags", action="store_true", help="--domain wide: hard-negative scenes, no tag in any")
    parser.add_argument("--classic-share", type=float, default=0.0,
                        help="--domain wide: this share of the images (chosen by seed) drawn as classic scenes")
    parser.add_argument("--panel-share", type=float, default=None,
                        help="--domain wide: share of fronts printing price and codes on a panel of their own "
                             "(training/synth/wide_tag.py PANEL_SHARE; default 0: sets keep their bytes)")
    parser.add_argument("--heavy-share", type=float, default=None,
                        help="--domain wide: share of fronts printing the price in faux bold and the size in a ruled "
                             "box (training/synth/wide_tag.py HEAVY_SHARE; default 0: sets keep their bytes)")
    parser.add_argument("--edge-share", type=float, default=None,
                        help="share of scenes cropped so the frame's edge cuts a tag by 5-40 %% of its height or "
                             "width, its box clipped (training/synth/edge_cut.py; default 0: sets keep their bytes)")
    parser.add_argument("--edge-hole-end", type=float, default=None,
                        help="share of the edge-cut scenes cut at the tag's punched-hole end by 10-40 %% "
                             "(training/synth/edge_cut.py HOLE_END_SHARE; default 0: sets keep their bytes)")
    args = parser.parse_args(argv)
    for share, variable, name in ((args.edge_share, "HTS_SYNTH_EDGE_SHARE", "EDGE_SHARE"),
                                  (args.edge_hole_end, "HTS_SYNTH_EDGE_HOLE_END", "HOLE_END_SHARE")):
        if share is not None:
            import os

            os.environ[variable] = str(share)  # worker processes read it at import
            import training.synth.edge_cut as edge_cut

            setattr(edge_cut, name, share)
    for share, variable, name in ((args.panel_share, "HTS_SYNTH_PANEL_SHARE", "PANEL_SHARE"),
                                  (args.heavy_share, "HTS_SYNTH_HEAVY_SHARE", "HEAVY_SHARE")):
        if share is not None:
            import os

            os.environ[variable] = str(share)  # worker processes read it when they import wide_tag
            if "training.synth.wide_tag" in sys.modules:
                setattr(sys.modules["training.synth.wide_tag"], name, share)

    for sub in ("labels", "truth") if args.flat else ("images", "labels", "truth"):
        (args.out / sub).mkdir(parents=True, exist_ok=True)
    seeds = list(range(args.seed, args.seed + args.count))
    tag_px = args.tag_px if args.cards else 0
    wide = (args.domain, args.held_out, args.classic_share, args.no_tags)
    chunks = [seeds[i:i + args.chunk] for i in range(0, len(seeds), args.chunk)]
    started = time.perf_counter()
    results: list[tuple[dict, list[dict]]] = []
    if args.workers <= 1:
        for chunk in chunks:
            results.extend(_work(str(args.out), chunk, args.imgsz, args.quality, args.clean, args.skip_existing, args.flat,
                                 tag_px, wide))
    else:
        with ProcessPoolExecutor(args.workers) as pool:
            futures = [pool.submit(_work, str(args.out), c, args.imgsz, args.quality, args.clean, args.skip_existing,
                                   args.flat, tag_px, wide) for c in chunks]
            for done, future in enumerate(futures, start=1):
                results.extend(future.result())
                if done % max(1, len(chunks) // 10) == 0:
                    print(f"{len(results)}/{args.count} images, {time.perf_counter() - started:.0f} s", flush=True)
    write_dataset_files(args.out, [r[0] for r in results], [r[1] for r in results], flat=args.flat)
    n_boxes = sum(len(r[1]) for r in results)
    print(f"wrote {len(results)} images, {n_boxes} boxes to {args.out} in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
