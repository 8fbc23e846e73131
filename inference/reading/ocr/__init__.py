"""PP-OCR run through the station's own engines: the same ONNX files rapidocr ships, our pre/post."""
