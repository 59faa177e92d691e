"""The schema registry, the coordinate spaces' reverse (`CoordSpace.coordinate`), the resized image's
pixels (`image_size`), a forced schema, and the fast PNG encoder a model's screenshot goes through."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from hybridgym.actions import SCHEMA_NAMES, ActionError, Click, Codec, CoordMode, get_schema
from hybridgym.actions.coords import CoordSpace
from hybridgym.imaging import encode_image, encode_png

SCREENS = [(1280, 800), (1080, 2400), (160, 210), (1920, 1080), (7, 3)]


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("mode", list(CoordMode))
@pytest.mark.parametrize("image", [None, (1024, 640), (333, 777)])
def test_coordinate_is_the_exact_reverse_of_point_for_every_pixel(screen, mode, image):
    space = CoordSpace(screen, mode, image=image)
    w, h = screen
    for x in range(w):
        assert space.point(list(space.coordinate((x, 0))))[0] == x
    for y in range(h):
        assert space.point(list(space.coordinate((0, y))))[1] == y


def test_coordinate_writes_the_shortest_numbers():
    space = CoordSpace((1280, 800), CoordMode.RELATIVE)
    assert space.coordinate((640, 400)) == (500, 500)            # an int where one maps back
    assert all(isinstance(v, int) for v in space.coordinate((1279, 799)))
    absolute = CoordSpace((1280, 800), CoordMode.ABSOLUTE)
    assert absolute.coordinate((17, 33)) == (17, 33)
    with pytest.raises(ActionError, match="outside the screen"):
        absolute.coordinate((1280, 0))


def test_pixels_of_a_resized_image_are_scaled_to_the_screen():
    space = CoordSpace((1280, 800), CoordMode.ABSOLUTE, image=(640, 400))
    assert space.extent == (640.0, 400.0)
    assert space.point([320, 200]) == (640, 400)
    resized = CoordSpace((1280, 800), CoordMode.SMART_RESIZE, image=(640, 400))
    assert resized.extent == (644.0, 392.0)            # the smart resize of the image sent, not of the screen
    with pytest.raises(ValueError, match="image must be"):
        CoordSpace((1280, 800), CoordMode.ABSOLUTE, image=(0, 10))


def test_schemas_are_registered_and_named_in_errors():
    assert set(SCHEMA_NAMES) == {"dict", "openai", "anthropic", "qwen", "seed", "uitars", "pyautogui"}
    for name in SCHEMA_NAMES:
        schema = get_schema(name)
        assert schema.name == name and schema.title and schema.coords_note
    with pytest.raises(ValueError, match="unknown action schema 'nope'; schemas: auto, anthropic"):
        Codec((1280, 800), schema="nope")


def test_a_forced_schema_reads_only_its_own_form():
    seed = Codec((1280, 800), schema="seed")
    with pytest.raises(ActionError, match="^Seed XML tool call"):
        seed.parse("pyautogui.click(10, 10)")
    openai = Codec((1280, 800), schema="openai")
    with pytest.raises(ActionError, match="^OpenAI computer_call: expected JSON"):
        openai.parse("Action: click(point='<point>1 1</point>')")
    with pytest.raises(ActionError, match="^OpenAI computer_call: the text is not valid JSON"):
        openai.parse('{"type": "click", ')
    assert Codec((1280, 800), schema="dict").parse('{"action_type": "click", "x": 3, "y": 4}') == [Click(3, 4)]
    assert seed.parse(Click(5, 6)) == [Click(5, 6)]      # typed actions pass whatever the schema


def test_auto_reads_json_text_and_says_what_it_accepts():
    codec = Codec((1280, 800))
    assert codec.parse('[{"action_type": "click", "x": 3, "y": 4}]') == [Click(3, 4)]
    with pytest.raises(ActionError, match="cannot tell what kind of action this is.*Seed XML.*Qwen.*OpenAI"):
        codec.parse("please click the button")
    with pytest.raises(ValueError, match="needs a schema name"):
        codec.format([Click(1, 1)])


def test_set_action_format_is_an_env_method():
    from hybridgym.core import HybridEnv
    assert "schema" in HybridEnv.__init__.__code__.co_varnames
    assert callable(HybridEnv.set_action_format)


@pytest.mark.parametrize("shape", [(1, 1, 3), (3, 5), (800, 1280, 3), (2400, 1080, 3), (31, 17, 4)])
def test_encode_png_is_lossless(shape):
    frame = np.random.default_rng(0).integers(0, 256, shape, dtype=np.uint8)
    frame[: shape[0] // 2] = 200                 # flat half, as a screen is
    back = np.asarray(Image.open(io.BytesIO(encode_png(frame))))
    assert back.shape == frame.shape and (back == frame).all()
    assert Image.open(io.BytesIO(encode_image(frame[..., :3] if frame.ndim == 3 else frame, "jpeg"))).format == "JPEG"
    with pytest.raises(ValueError, match="uint8"):
        encode_png(frame.astype(np.float32))
