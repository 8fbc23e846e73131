"""The model in use draws its boxes on each kept frame first, so the engineer only fixes them."""

from __future__ import annotations

from collections.abc import Callable

from inference.adapt.folder import AdaptFolder, Box


def prelabel(folder: AdaptFolder, pipeline, *, only_unlabelled: bool = True,
             should_stop: Callable[[], bool] | None = None) -> int:
    """Boxes the pipeline shows at its thresholds become each uncorrected frame's draft; returns how many
    frames got one. Corrected frames are never touched: the engineer's work outranks the model's."""
    done = 0
    for frame in folder.frames():
        if should_stop is not None and should_stop():
            break
        if frame.corrected or (only_unlabelled and frame.boxes):
            continue
        folder.set_boxes(frame.id, draft_boxes(pipeline, folder.image(frame.id), folder.class_names),
                         corrected=False)
        done += 1
    return done


def draft_boxes(pipeline, image_bgr, class_names: tuple[str, ...]) -> list[Box]:
    result = pipeline.process(image_bgr, source_name="adapt")
    d = result.detections
    return [Box(tuple(float(v) for v in d.xyxy[i]), int(d.class_id[i]), "model")
            for i in range(len(d)) if 0 <= int(d.class_id[i]) < len(class_names)]
