"""QR codes as inline SVG (segno: pure Python, no image library), for the links printed on
seat cards, receipts and the dealer's table cards."""

import segno


def qr_svg(url: str, scale: int = 4) -> str:
    """The QR code of `url` as an <svg> element (no XML declaration), black on white, with
    the quiet zone the standard asks for."""
    code = segno.make(url, error="m", micro=False)
    return code.svg_inline(scale=scale, dark="#000", light="#fff", omitsize=True)
