#!/usr/bin/env python3
"""Checks a chart's picture against its SVG: ChartPictureTests runs it on the PNG that
rsvg-convert drew from a chart `dice --svg` wrote.

    scripts/check-chart-png.py CHART.svg CHART.png

Reads the SVG's bars (`<rect class="bar ...">`) and points (`<circle class="point ...">`),
and for each one big enough to have a pixel of its own colour (a box of at least 5 x 5
pixels in the picture), the pixel at its centre. Prints one JSON object:
{"width": W, "height": H, "marks": N, "checked": C, "wrong": [...], "inked": P, "colours": [...]}:
the marks in the SVG, the ones checked, those whose pixel is not their fill (each with what
was found), the share of pixels that are not white (a blank picture has none), and the fills
seen. Standard library only: the PNG is decoded here (zlib, the five row filters; 8-bit RGB
or RGBA, not interlaced, as rsvg-convert writes it).
"""
import json
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

SVG = "{http://www.w3.org/2000/svg}"


def read_png(path):
    """(width, height, rows): each row a bytes object of RGBA pixels."""
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("check-chart-png: %s is not a PNG" % path)
    offset, chunks, header = 8, [], None
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        elif kind == b"IEND":
            break
        offset += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        sys.exit("check-chart-png: %s: depth %d, colour type %d, interlace %d not read here"
                 % (path, depth, colour, interlace))
    channels = 4 if colour == 6 else 3
    stride = width * channels
    raw = zlib.decompress(b"".join(chunks))
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                guess = left + up - corner
                pa, pb, pc = abs(guess - left), abs(guess - up), abs(guess - corner)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[x] = (line[x] + predictor) & 0xFF
        previous = line
        if channels == 3:
            line = bytearray(b"".join(bytes(line[i:i + 3]) + b"\xff" for i in range(0, stride, 3)))
        rows.append(bytes(line))
    return width, height, rows


def pixel(rows, x, y):
    """The colour at (x, y) as `#rrggbb`, composed over white."""
    r, g, b, a = rows[y][4 * x:4 * x + 4]
    blend = lambda c: round(c * a / 255 + 255 * (1 - a / 255))
    return "#%02x%02x%02x" % (blend(r), blend(g), blend(b))


def close(found, wanted, tolerance=8):
    return all(abs(int(found[i:i + 2], 16) - int(wanted[i:i + 2], 16)) <= tolerance for i in (1, 3, 5))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: scripts/check-chart-png.py CHART.svg CHART.png")
    root = ET.parse(sys.argv[1]).getroot()
    view = [float(v) for v in root.get("viewBox").split()]
    width, height, rows = read_png(sys.argv[2])
    sx, sy = width / view[2], height / view[3]
    marks, checked, wrong, colours = 0, 0, [], set()
    for element in root.iter():
        tag, classes = element.tag.replace(SVG, ""), (element.get("class") or "").split()
        if tag == "rect" and "bar" in classes:
            x, y = float(element.get("x")), float(element.get("y"))
            w, h = float(element.get("width")), float(element.get("height"))
        elif tag == "circle" and "point" in classes:
            r = float(element.get("r"))
            x, y, w, h = float(element.get("cx")) - r, float(element.get("cy")) - r, 2 * r, 2 * r
        else:
            continue
        marks += 1
        fill = element.get("fill").lower()
        colours.add(fill)
        if w * sx < 5 or h * sy < 5:
            continue
        checked += 1
        cx, cy = int((x + w / 2) * sx), int((y + h / 2) * sy)
        found = pixel(rows, min(cx, width - 1), min(cy, height - 1))
        if not close(found, fill):
            wrong.append({"at": [cx, cy], "fill": fill, "found": found})
    white = sum(1 for row in rows for i in range(0, len(row), 4) if row[i:i + 3] == b"\xff\xff\xff")
    print(json.dumps({"width": width, "height": height, "marks": marks, "checked": checked, "wrong": wrong,
                      "inked": round(1 - white / (width * height), 4), "colours": sorted(colours)}))


if __name__ == "__main__":
    main()
