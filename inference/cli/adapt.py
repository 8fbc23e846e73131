"""`hangtag-inspect adapt`: the station's Adapt workflow without a window (e.g. on a GPU server).

    hangtag-inspect adapt --data DIR                      fine-tune on DIR's corrected frames, then compare
    hangtag-inspect adapt --data DIR --collect FOLDER     keep FOLDER's images and pre-label them (correct
                                                          them in the station's Adapt → Correct, or any COCO tool)
    hangtag-inspect adapt --data DIR --adopt              ... and make the candidate the station's model
    hangtag-inspect adapt --roll-back                     back to the model used before the last adoption

DIR is the station's Adapt data folder (annotations.json is COCO; images marked "corrected" are the
ones an engineer checked). The candidate lands in DIR/candidates/<stamp>/ with its ONNX, model card,
training log and comparison.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from inference.adapt.compare import compare, golden_frames, held_out_frames
from inference.adapt.finetune import FineTuneSettings, fine_tune
from inference.adapt.folder import AdaptFolder
from inference.adapt.models import ModelStore, spec_of
from inference.adapt.prelabel import prelabel
from inference.adapt.verdicts import DEFAULT_CAP


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("adapt", help="fine-tune the detector on an Adapt data folder, compare, adopt or roll back")
    parser.add_argument("--data", type=Path, help="the Adapt data folder (annotations.json, frames/)")
    parser.add_argument("--collect", type=Path, help="first keep this folder's images and pre-label them, then stop")
    parser.add_argument("--model", type=Path, default=None, help="start from this ONNX (default: the model in use)")
    parser.add_argument("--candidate", type=Path, default=None,
                        help="compare (and adopt) this candidate folder instead of fine-tuning a new one")
    parser.add_argument("--epochs", type=int, default=FineTuneSettings.epochs)
    parser.add_argument("--batch", type=int, default=FineTuneSettings.batch)
    parser.add_argument("--lr", type=float, default=FineTuneSettings.lr)
    parser.add_argument("--held-out", type=float, default=FineTuneSettings.held_out_fraction,
                        help="share of corrected frames never trained on (kept once assigned)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="auto", help="auto (a GPU where PyTorch sees one), cpu or cuda")
    parser.add_argument("--imgsz", type=int, default=0, help="training size (default: the model's input size)")
    parser.add_argument("--train-backbone", action=argparse.BooleanOptionalAction,
                        default=not FineTuneSettings.freeze_backbone,
                        help="also train the backbone (else only the neck and heads learn)")
    parser.add_argument("--recipe", type=Path, default=None,
                        help="the job's recipe: judge the held-out frames under it (else their reads are compared)")
    parser.add_argument("--verdict-frames", type=int, default=DEFAULT_CAP,
                        help="frames per set read and judged with each model, those whose tag boxes differ most "
                             f"(default {DEFAULT_CAP}: reading takes seconds per tag on a CPU; 0 = every frame)")
    parser.add_argument("--backend", default=None, help="engine backend for pre-labels and the comparison")
    parser.add_argument("--models-dir", type=Path, default=None,
                        help="where adopted models are kept (default: the station's data folder)")
    parser.add_argument("--adopt", action="store_true", help="adopt the candidate after the comparison")
    parser.add_argument("--adopt-despite-ng", action="store_true",
                        help="adopt even though the candidate turns judged frames from OK to NG (after looking at them)")
    parser.add_argument("--roll-back", action="store_true", help="go back to the model used before the last adoption")
    parser.set_defaults(func=adapt)


def adapt(args: argparse.Namespace) -> int:
    store = ModelStore(args.models_dir)
    if args.roll_back:
        print(f"in use now: {store.roll_back().label}")
        return 0
    if args.data is None:
        raise SystemExit("hangtag-inspect adapt: give --data DIR (or --roll-back)")
    base = args.model or store.in_use().path
    spec = spec_of(base)
    folder = AdaptFolder(args.data, tuple(spec.class_names))
    if args.collect:
        from inference.pipeline import Pipeline

        kept = folder.keep_folder(args.collect)
        with Pipeline.open(base, args.backend) as pipeline:
            drafted = prelabel(folder, pipeline)
        print(f"kept {len(kept)} frames in {folder.root}, pre-labelled {drafted}; correct them (station: Adapt → "
              f"Correct), then run: hangtag-inspect adapt --data {folder.root}")
        return 0
    settings = FineTuneSettings(epochs=args.epochs, batch=args.batch, lr=args.lr, held_out_fraction=args.held_out,
                                seed=args.seed, device=args.device, imgsz=args.imgsz,
                                freeze_backbone=not args.train_backbone)

    def show(report) -> None:
        ap = "  ".join(f"{k} {v:.3f}" for k, v in report.held_out_ap50.items() if v == v)
        print(f"epoch {report.epoch}/{report.epochs}  loss {report.loss:.3f}  held-out AP50 {ap}  "
              f"{report.elapsed_s:.0f} s", flush=True)

    if args.candidate is not None:
        candidate = _load_candidate(args.candidate)
    else:
        candidate = fine_tune(folder, base, settings, on_epoch=show)
    print(f"candidate: {candidate.model_path} ({candidate.train_frames} frames trained, {candidate.held_out_frames} "
          f"held out, {candidate.device}, {candidate.seconds:.0f} s)")
    recipe = None
    if args.recipe:
        from inference.reading import load_recipe

        recipe = load_recipe(args.recipe)
    result = compare(base, candidate.model_path, {"held-out": held_out_frames(folder), "golden": golden_frames()},
                     tuple(spec.class_names), backend=args.backend, recipe=recipe,
                     verdict_cap=args.verdict_frames if args.verdict_frames > 0 else None)
    result.save(candidate.directory / "comparison.json")
    print(comparison_text(result))
    if args.adopt:
        if result.ok_to_ng and not args.adopt_despite_ng:
            print(f"not adopted: {adoption_warning(result)}\n  look at those frames; to adopt anyway add "
                  "--adopt-despite-ng (hangtag-inspect adapt --roll-back goes back)")
            return 3
        print(f"adopted: {store.adopt(candidate.model_path, note=f'adapt --data {folder.root}').label}")
    return 0


def _load_candidate(directory: Path):
    from inference.adapt.errors import AdaptError
    from inference.adapt.finetune import Candidate

    try:
        return Candidate.load(directory)
    except (OSError, ValueError, KeyError) as exc:
        raise AdaptError("not a candidate folder", expected="training.json and hangtag_det.onnx (adapt writes them)",
                         found=f"{directory}: {exc}", hint="give a folder DIR/candidates/<stamp>") from None


def adoption_warning(result) -> str:
    flips = result.ok_to_ng
    return (f"the candidate turns {len(flips)} frame(s) the model in use judged OK to NG: "
            + ", ".join(f"{name} {c.frame}" for name, c in flips))


def comparison_text(result) -> str:
    lines = []
    for s in result.sets:
        cur, cand = s.current.to_json(), s.candidate.to_json()
        lines.append(f"{s.name} ({cur['frames']} frames)     current -> candidate")
        for name in cur["ap50"]:
            a, b = cur["ap50"][name], cand["ap50"][name]
            if a is not None:
                lines.append(f"  {name:<10} AP50      {a:.3f} -> {b:.3f}")
        lines.append(f"  false tags per 100 frames {cur['false_tags_per_100']:.1f} -> {cand['false_tags_per_100']:.1f}")
        lines.append(f"  tag counts shown that would change: {len(s.changes)}"
                     + "".join(f"\n    {c.frame}: {c.current} -> {c.candidate}" for c in s.changes[:10]))
        lines += verdict_lines(s.verdicts)
    return "\n".join(lines)


def verdict_lines(v) -> list[str]:
    if v is None:
        return ["  verdicts: not judged"]
    lines = [f"  verdicts on {v.sample_note}"]
    for who, t in (("in use", v.current), ("candidate", v.candidate)):
        counts = ", ".join(f"{k} {n}" for k, n in sorted(t.counts.items()))
        good = f"; good frames OK {t.good_ok}/{t.good}, false NG {t.false_ng}" if t.good else ""
        lines.append(f"    {who:<10}{counts}{good}")
    lines.append(f"  verdicts that would change: {len(v.verdict_changes)}; frames read differently: {len(v.changes)}")
    lines += [f"    {c.describe()}" for c in v.changes]
    return lines


