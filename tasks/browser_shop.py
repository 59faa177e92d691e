"""Browser tasks on the Shop web app (assets/web/shop/, backend tasks/webapps/shop.py): search, filters, cart, checkout.

## Description
"Northwind Market": a catalogue of 144 seeded products (8 categories, brands, prices,
ratings, stock, sizes, colours) with search, filters, sort and pagination; product pages
with option dropdowns; a cart with coupons; a checkout form with field validation and a
confirmation modal; order history with details and "Buy again"; a wishlist.

## Action Space / Observation Space
Those of `BrowserEnv` (the whole 1280×800 screen; clicks, keys, typing, scrolls).

## Rewards
1.0 when the task's checker passes on the shop backend's state (`ShopApp.state()`: cart,
wishlist, coupon, orders) and, for questions, on the `finished(content=...)` answer;
the checker also requires everything the task did not ask for to be as it was.

## Starting State
A catalogue seed and the task's targets are drawn from the reset seed; the app is
installed fresh at setup (cart, wishlist as the task needs) and the page opens on the
catalogue (or a category listing).

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.

The oracle helpers at the top (positions from the live page, acting only through
actions) are shared with the webmail tasks.
"""

from __future__ import annotations

import re

import numpy as np

from hybridgym.reward import CheckResult
from hybridgym.reward.checkers import all_of, answer_matches
from hybridgym.reward.shop import cart_is, order_placed, shop_unchanged
from hybridgym.tasks.webapps import shop

from .base import Task, register_task

# -- oracle helpers (positions from the live page; acting only through actions) -------------

_READY = "t => performance.timeOrigin !== t && document.body && document.body.dataset.ready === '1'"


def page_of(sb, tab: int | None = None):
    """The Playwright page of tab `tab` (None: the env's first page)."""
    return sb.browser.page if tab is None else sb.browser.context.pages[tab]


def point(sb, selector: str, tab: int | None = None) -> tuple[int, int]:
    """Screen pixel of the centre of `selector` in a tab (scrolled into view).

    Like `ChromiumBrowser.screen_point`, for any tab, and patient (8 s) on a loaded machine."""
    loc = page_of(sb, tab).locator(selector).first
    loc.scroll_into_view_if_needed(timeout=20000)
    box = loc.bounding_box(timeout=20000)
    return sb.browser.to_screen(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def click(sb, selector: str, tab: int | None = None, button: str = "left") -> dict:
    x, y = point(sb, selector, tab)
    if button == "middle":
        return {"action_type": "middle_single", "x": x, "y": y}
    return {"action_type": "click", "x": x, "y": y}


def wait_ready(sb, tab: int | None = None) -> None:
    """Wait until the tab's page has drawn its data (pages set body[data-ready])."""
    page_of(sb, tab).wait_for_selector("body[data-ready='1']", timeout=20000)


def wait_tabs(sb, n: int) -> None:
    """Wait until the browser has `n` tabs."""
    for _ in range(400):
        if len(sb.browser.context.pages) >= n:
            return
        sb.browser.page.wait_for_timeout(20)
    raise TimeoutError(f"the browser did not open tab {n}")


def click_nav(sb, selector: str, tab: int | None = None):
    """Click something that loads a new page, then wait (reading only) for that page's data."""
    page = page_of(sb, tab)
    t0 = page.evaluate("performance.timeOrigin")
    yield click(sb, selector, tab)
    page.wait_for_function(_READY, arg=t0, timeout=20000)


def key_nav(sb, keys: list[str], tab: int | None = None):
    """Press keys that load a new page (Enter in a form), then wait for it."""
    page = page_of(sb, tab)
    t0 = page.evaluate("performance.timeOrigin")
    yield {"action_type": "hotkey", "keys": keys}
    page.wait_for_function(_READY, arg=t0, timeout=20000)


def type_nav(sb, text: str, tab: int | None = None):
    """Type text ending in a newline that submits a form and loads a new page."""
    page = page_of(sb, tab)
    t0 = page.evaluate("performance.timeOrigin")
    yield {"action_type": "type", "text": text}
    page.wait_for_function(_READY, arg=t0, timeout=20000)


def fill(sb, selector: str, text: str, tab: int | None = None):
    """Click a text field, select what it holds, and type."""
    yield click(sb, selector, tab)
    if page_of(sb, tab).locator(selector).first.input_value():
        yield {"action_type": "hotkey", "keys": ["ctrl", "a"]}
    yield {"action_type": "type", "text": text}


def choose(sb, selector: str, label: str, tab: int | None = None, navigates: bool = False):
    """Open a <select> by clicking, type the option's label, and press Enter."""
    yield click(sb, selector, tab)
    yield {"action_type": "type", "text": label}
    if navigates:
        yield from key_nav(sb, ["enter"], tab)
    else:
        yield {"action_type": "hotkey", "keys": ["enter"]}


def wait_text(sb, selector: str, text: str, tab: int | None = None) -> None:
    """Wait until `selector`'s text contains `text` (an update without a page load)."""
    page_of(sb, tab).wait_for_function("([s, t]) => { const e = document.querySelector(s); return e && e.textContent.includes(t); }",
                                       arg=[selector, text], timeout=20000)


def finish(content: str = "") -> dict:
    return {"action_type": "finished", "content": content}


# -- shop data helpers -------------------------------------------------------------------------

_NAMES = ["Alex Morgan", "Priya Nair", "Jonas Weber", "Maria Rossi", "Kenji Sato", "Fatima Zahra", "Liam O'Brien",
          "Chloe Dubois", "Mateo García", "Aisha Bello"]
_STREETS = ["14 Rosewood Avenue", "221 Canal Street", "7 Birch Lane", "58 Harbour View", "3 Old Mill Road",
            "90 Kingfisher Way", "12 Chapel Row", "41 Meadow Close"]
_CITIES = ["Springfield", "Riverton", "Lakeside", "Fairview", "Ashford", "Millbrook", "Oakridge", "Kingsport"]


def _catalogue(rng: np.random.Generator) -> tuple[int, list[dict]]:
    seed = int(rng.integers(0, 2**31 - 1))
    return seed, shop.generate_catalogue(seed)


def _address(rng: np.random.Generator) -> dict:
    name = str(rng.choice(_NAMES))
    return {"name": name, "street": str(rng.choice(_STREETS)), "city": str(rng.choice(_CITIES)),
            "postcode": f"{int(rng.integers(10000, 99999))}",
            "phone": f"0{int(rng.integers(100, 999))} {int(rng.integers(100, 999))} {int(rng.integers(1000, 9999))}",
            "email": name.split()[0].lower().replace("'", "") + f"{int(rng.integers(10, 99))}@example.com"}


def _card(rng: np.random.Generator) -> dict:
    digits = "4" + "".join(str(int(d)) for d in rng.integers(0, 10, size=15))
    return {"card": " ".join(digits[i:i + 4] for i in range(0, 16, 4)),
            "expiry": f"{int(rng.integers(1, 13)):02d}/{int(rng.integers(27, 31))}", "cvc": f"{int(rng.integers(100, 999))}"}


def _options(rng: np.random.Generator, p: dict) -> dict:
    return {"size": str(rng.choice(p["sizes"])) if p["sizes"] else "", "colour": str(rng.choice(p["colours"]))}


def _describe(line: dict, name: str) -> str:
    opts = [f"size {line['size']}" if line.get("size") else "", line.get("colour", "")]
    return f"{line['qty']} × {name}" + (f" ({', '.join(o for o in opts if o)})" if any(opts) else "")


def _initial_cart(rng: np.random.Generator, products: list[dict], n: int, exclude=()) -> list[dict]:
    pool = [p for p in products if p["stock"] >= 3 and p["id"] not in exclude]
    picks = rng.choice(len(pool), size=n, replace=False)
    return [{"product_id": pool[i]["id"], **_options(rng, pool[i]), "qty": int(rng.integers(1, 3))} for i in picks]


class ShopTask(Task):
    """Base of the shop tasks: installs the app from params, reads its state."""

    suite = "browser"
    start_page = "index.html"

    def app_kwargs(self, params: dict) -> dict:
        return {"cart": params.get("cart", []), "wishlist": params.get("wishlist", [])}

    def setup(self, sb, params: dict) -> None:
        shop.install(sb.server, params["catalogue"], **self.app_kwargs(params))
        sb.browser.load(sb.server.url("/shop/" + self.start_page))
        wait_ready(sb)

    def read_state(self, sb, params: dict) -> dict:
        return shop.app_of(sb.server).state()

    def name(self, params: dict, pid: int) -> str:
        return shop.generate_catalogue(params["catalogue"])[pid - 1]["name"]


def _search_open(sb, name: str):
    """Oracle steps: search a product by its full name and open its page."""
    yield click(sb, "#search")
    yield from type_nav(sb, name + "\n")
    yield from click_nav(sb, f".product-card:has(a.product-link:text-is({name!r})) a.product-link")


def _set_options(sb, line: dict, first: bool = True):
    """Oracle steps on a product page: size, colour and quantity, then Add to cart."""
    if line.get("size"):
        yield from choose(sb, "#size", line["size"])
        yield {"action_type": "hotkey", "keys": ["tab"]}
        yield {"action_type": "type", "text": line["colour"]}  # a focused closed <select> picks by typing
    else:
        yield from choose(sb, "#colour", line["colour"])
    if line["qty"] != 1:
        yield {"action_type": "hotkey", "keys": ["tab"]}     # tabbing into the field selects its value
        yield {"action_type": "type", "text": str(line["qty"])}
    yield click(sb, "#add-to-cart")
    wait_text(sb, "#cart-msg", "Added")


# -- tasks -----------------------------------------------------------------------------------------

@register_task
class ShopAddWithOptions(ShopTask):
    """Find a product by name and add it to the cart with a given size, colour and quantity.

    The checker requires the cart to hold exactly that one line, and the wishlist and
    orders untouched. About 12 steps: search, open, pick options, add.
    """

    id = "browser.shop-add-options-v0"
    max_steps = 20

    def sample(self, rng):
        seed, products = _catalogue(rng)
        p = products[int(rng.choice([q["id"] for q in products if q["sizes"] and q["stock"] >= 3])) - 1]
        line = {"product_id": p["id"], **_options(rng, p), "qty": int(rng.integers(2, 4))}
        return {"catalogue": seed, "line": line}

    def instruction(self, params):
        return f"In the Northwind Market shop, add {_describe(params['line'], self.name(params, params['line']['product_id']))} to the cart."

    def check(self, state, params, answer, baseline):
        return all_of(cart_is(state["cart"], [params["line"]]),
                      shop_unchanged(baseline, state, parts=("wishlist", "orders", "coupon")))

    def oracle(self, sb, params):
        yield from _search_open(sb, self.name(params, params["line"]["product_id"]))
        yield from _set_options(sb, params["line"])
        yield finish()


@register_task
class ShopCheapestAnswer(ShopTask):
    """Answer with the price of the cheapest in-stock product of a category and brand.

    Needs the category, brand, availability filters and the sort (or reading every
    page). The answer is checked as a number; the shop's state must be untouched.
    """

    id = "browser.shop-cheapest-answer-v0"
    max_steps = 16

    def sample(self, rng):
        seed, products = _catalogue(rng)
        while True:
            cat = str(rng.choice(list(shop.CATEGORIES)))
            brand = str(rng.choice(sorted({p["brand"] for p in products if p["category"] == cat})))
            hits = sorted((p["price"], p["id"]) for p in products
                          if p["category"] == cat and p["brand"] == brand and p["stock"] > 0)
            if len(hits) >= 2 and hits[0][0] != hits[1][0]:
                return {"catalogue": seed, "category": cat, "brand": brand, "price": hits[0][0]}

    def instruction(self, params):
        return (f"In the Northwind Market shop, what is the price of the cheapest {params['category']} product "
                f"by {params['brand']} that is in stock? Answer with the price only.")

    def check(self, state, params, answer, baseline):
        return all_of(answer_matches(answer, f"{params['price']:.2f}", numeric=True), shop_unchanged(baseline, state))

    def oracle(self, sb, params):
        yield from click_nav(sb, f"a.cat-link[data-cat={params['category']!r}]")
        yield from choose(sb, "#brand", params["brand"], navigates=True)
        yield from click_nav(sb, "#instock")
        yield from choose(sb, "#sort", "Price: low", navigates=True)
        price = sb.browser.page.locator(".product-card .price").first.inner_text()
        yield finish(price.lstrip("$"))


@register_task
class ShopTopRatedAnswer(ShopTask):
    """Answer with the name of the best-rated product of a category within a price range.

    The range is chosen so that exactly one product has the top rating in it.
    """

    id = "browser.shop-top-rated-answer-v0"
    max_steps = 16

    def sample(self, rng):
        seed, products = _catalogue(rng)
        while True:
            cat = str(rng.choice(list(shop.CATEGORIES)))
            prices = sorted(p["price"] for p in products if p["category"] == cat)
            lo = int(prices[int(rng.integers(0, 6))])
            hi = int(prices[int(rng.integers(10, 17))]) + 1
            inside = [p for p in products if p["category"] == cat and lo <= p["price"] <= hi]
            top = max(p["rating"] for p in inside)
            best = [p for p in inside if p["rating"] == top]
            if len(best) == 1 and len(inside) >= 5:
                return {"catalogue": seed, "category": cat, "min": lo, "max": hi, "answer": best[0]["name"]}

    def instruction(self, params):
        return (f"In the Northwind Market shop, which {params['category']} product priced between "
                f"${params['min']} and ${params['max']} has the highest customer rating? Answer with its full name.")

    def check(self, state, params, answer, baseline):
        return all_of(answer_matches(answer, params["answer"]), shop_unchanged(baseline, state))

    def oracle(self, sb, params):
        yield from click_nav(sb, f"a.cat-link[data-cat={params['category']!r}]")
        yield click(sb, "#min")
        yield {"action_type": "type", "text": str(params["min"])}
        yield {"action_type": "hotkey", "keys": ["tab"]}
        yield from type_nav(sb, f"{params['max']}\n")
        yield from choose(sb, "#sort", "Customer", navigates=True)
        yield finish(sb.browser.page.locator(".product-card a.product-link").first.inner_text())


@register_task
class ShopCartEdit(ShopTask):
    """Change the quantity of one cart line and remove another.

    The cart starts with three lines; the checker wants the first changed, the
    second gone and the third as it was.
    """

    id = "browser.shop-cart-edit-v0"
    max_steps = 12

    def sample(self, rng):
        seed, products = _catalogue(rng)
        cart = _initial_cart(rng, products, 3)
        change, remove = (int(i) for i in rng.choice(3, size=2, replace=False))
        qty = int(rng.integers(3, 6))
        return {"catalogue": seed, "cart": cart, "change": change, "remove": remove, "qty": qty}

    def instruction(self, params):
        c, r = params["cart"][params["change"]], params["cart"][params["remove"]]
        return (f"In your Northwind Market cart, set the quantity of {self.name(params, c['product_id'])} to "
                f"{params['qty']} and remove {self.name(params, r['product_id'])}.")

    def check(self, state, params, answer, baseline):
        want = [dict(ln) for i, ln in enumerate(params["cart"]) if i != params["remove"]]
        for ln in want:
            if ln == params["cart"][params["change"]]:
                ln["qty"] = params["qty"]
        return all_of(cart_is(state["cart"], want), shop_unchanged(baseline, state, parts=("wishlist", "orders", "coupon")))

    def oracle(self, sb, params):
        yield from click_nav(sb, "#nav-cart")
        n = params["change"] + 1
        yield from fill(sb, f"tr.cart-line:nth-child({n}) input.qty", f"{params['qty']}\n")
        sb.browser.page.wait_for_function("q => [...document.querySelectorAll('input.qty')].some(i => i.value == q)"
                                          " && document.body.dataset.version >= 2", arg=str(params["qty"]))
        yield click(sb, f"tr.cart-line:nth-child({params['remove'] + 1}) button.remove")
        yield finish()


@register_task
class ShopWishlistAdd(ShopTask):
    """Add two named products to the wishlist (which already holds one other product).

    About 9 steps: search and open each product, click its wishlist button.
    """

    id = "browser.shop-wishlist-add-v0"
    max_steps = 16

    def sample(self, rng):
        seed, products = _catalogue(rng)
        a, b, c = (int(i) + 1 for i in rng.choice(len(products), size=3, replace=False))
        return {"catalogue": seed, "wishlist": [c], "add": [a, b]}

    def instruction(self, params):
        a, b = (self.name(params, i) for i in params["add"])
        return f"In the Northwind Market shop, add {a} and {b} to your wishlist."

    def check(self, state, params, answer, baseline):
        want = sorted(params["wishlist"] + params["add"])
        if sorted(state["wishlist"]) != want:
            return CheckResult.failed(f"the wishlist holds products {sorted(state['wishlist'])}, expected {want}")
        return shop_unchanged(baseline, state, parts=("cart", "orders", "coupon"))

    def oracle(self, sb, params):
        for pid in params["add"]:
            yield from _search_open(sb, self.name(params, pid))
            yield click(sb, "#wishlist-btn")
            wait_text(sb, "#wishlist-btn", "In wishlist")
        yield finish()


@register_task
class ShopWishlistToCart(ShopTask):
    """Move a wishlist product to the cart: add it with given options, then take it off the wishlist.

    The wishlist starts with three products; the cart with one line.
    """

    id = "browser.shop-wishlist-to-cart-v0"
    max_steps = 18

    def sample(self, rng):
        seed, products = _catalogue(rng)
        pool = [p["id"] for p in products if p["stock"] >= 3]
        wish = [int(i) for i in rng.choice(pool, size=3, replace=False)]
        move = wish[int(rng.integers(0, 3))]
        cart = _initial_cart(rng, products, 1, exclude=wish)
        line = {"product_id": move, **_options(rng, products[move - 1]), "qty": 1}
        return {"catalogue": seed, "wishlist": wish, "cart": cart, "line": line}

    def instruction(self, params):
        ln = params["line"]
        return (f"In the Northwind Market shop, move {self.name(params, ln['product_id'])} from your wishlist to "
                f"your cart: add 1 of it" + (f" in size {ln['size']}" if ln["size"] else "") +
                f", colour {ln['colour']}, and remove it from the wishlist.")

    def check(self, state, params, answer, baseline):
        want = [w for w in params["wishlist"] if w != params["line"]["product_id"]]
        if sorted(state["wishlist"]) != sorted(want):
            return CheckResult.failed(f"the wishlist holds {sorted(state['wishlist'])}, expected {sorted(want)}")
        return all_of(cart_is(state["cart"], params["cart"] + [params["line"]]),
                      shop_unchanged(baseline, state, parts=("orders", "coupon")))

    def oracle(self, sb, params):
        yield from click_nav(sb, "#nav-wishlist")
        yield from click_nav(sb, f".wish-item[data-id='{params['line']['product_id']}'] a.product-link")
        yield from _set_options(sb, params["line"])
        yield click(sb, "#wishlist-btn")
        wait_text(sb, "#wishlist-btn", "Add to wishlist")
        yield finish()


def _checkout_steps(sb, params: dict, start_at_cart: bool = False):
    """Oracle steps from any page: cart, checkout form, review modal, place order."""
    if not start_at_cart:
        yield from click_nav(sb, "#nav-cart")
    yield from click_nav(sb, "#checkout-btn")
    a, pay = params["address"], params["payment"]
    for field in ("name", "phone", "street", "email", "city", "postcode"):
        yield click(sb, f"#{field}")
        yield {"action_type": "type", "text": a[field]}
    yield click(sb, f"#ship-{params['shipping']}")
    for field in ("card", "expiry", "cvc"):
        yield click(sb, f"#{field}")
        yield {"action_type": "type", "text": pay[field]}
    yield click(sb, "#review")
    sb.browser.page.wait_for_selector("#confirm-modal.open #place-order", state="visible", timeout=20000)
    yield from click_nav(sb, "#place-order")


def _checkout_text(params: dict) -> str:
    a, pay = params["address"], params["payment"]
    return (f"Ship to {a['name']}, {a['street']}, {a['city']}, postcode {a['postcode']}; phone {a['phone']}, "
            f"email {a['email']}; shipping: {shop.SHIPPING[params['shipping']][0]}. Pay with card {pay['card']}, "
            f"expiry {pay['expiry']}, CVC {pay['cvc']}.")


@register_task
class ShopCheckout(ShopTask):
    """Check out the cart as it is, with a given address, shipping option and card.

    The checker requires one new order holding the cart's lines, the address and the
    shipping method asked for, earlier orders untouched. About 25 steps.
    """

    id = "browser.shop-checkout-v0"
    max_steps = 34

    def sample(self, rng):
        seed, products = _catalogue(rng)
        return {"catalogue": seed, "cart": _initial_cart(rng, products, int(rng.integers(1, 3))),
                "address": _address(rng), "payment": _card(rng),
                "shipping": str(rng.choice(list(shop.SHIPPING)))}

    def instruction(self, params):
        return "In the Northwind Market shop, check out the items in your cart. " + _checkout_text(params)

    def check(self, state, params, answer, baseline):
        return all_of(order_placed(baseline, state, params["cart"], params["address"], params["shipping"]),
                      shop_unchanged(baseline, state, parts=("wishlist",)))

    def oracle(self, sb, params):
        yield from _checkout_steps(sb, params)
        yield finish()


@register_task
class ShopCouponCheckout(ShopTask):
    """Apply a coupon code in the cart, then check out with a given address and shipping option.

    The cart starts with two lines; the order must carry the coupon.
    """

    id = "browser.shop-coupon-checkout-v0"
    max_steps = 38

    def sample(self, rng):
        seed, products = _catalogue(rng)
        return {"catalogue": seed, "cart": _initial_cart(rng, products, 2), "address": _address(rng),
                "payment": _card(rng), "shipping": str(rng.choice(["standard", "express", "nextday"])),
                "coupon": str(rng.choice(list(shop.COUPONS)))}

    def instruction(self, params):
        return (f"In the Northwind Market shop, apply the coupon code {params['coupon']} to your cart and check out. "
                + _checkout_text(params))

    def check(self, state, params, answer, baseline):
        return all_of(order_placed(baseline, state, params["cart"], params["address"], params["shipping"],
                                   coupon=params["coupon"]),
                      shop_unchanged(baseline, state, parts=("wishlist",)))

    def oracle(self, sb, params):
        yield from click_nav(sb, "#nav-cart")
        yield click(sb, "#coupon")
        yield {"action_type": "type", "text": params["coupon"] + "\n"}
        wait_text(sb, "#coupon-msg", "applied")
        yield from _checkout_steps(sb, params, start_at_cart=True)
        yield finish()


@register_task
class ShopOrderCityAnswer(ShopTask):
    """Answer which city the past order containing a given product was shipped to.

    Needs the order history and that order's detail page.
    """

    id = "browser.shop-order-city-answer-v0"
    max_steps = 10

    def sample(self, rng):
        seed, _ = _catalogue(rng)
        orders = shop.ShopApp(seed).orders
        counts: dict[str, int] = {}
        for o in orders:
            for it in o["items"]:
                counts[it["name"]] = counts.get(it["name"], 0) + 1
        o = orders[int(rng.integers(0, len(orders)))]
        name = next((it["name"] for it in o["items"] if counts[it["name"]] == 1), None)
        if name is None:
            return self.sample(rng)
        return {"catalogue": seed, "product": name, "order": o["id"], "city": o["address"]["city"]}

    def instruction(self, params):
        return (f"In the Northwind Market shop, to which city was your past order containing "
                f"{params['product']} shipped? Answer with the city name.")

    def check(self, state, params, answer, baseline):
        return all_of(answer_matches(answer, params["city"]), shop_unchanged(baseline, state))

    def oracle(self, sb, params):
        yield from click_nav(sb, "#nav-orders")
        yield from click_nav(sb, f"tr.order-row[data-id='{params['order']}'] a.order-link")
        yield finish(_shipped_city(sb))


def _shipped_city(sb) -> str:
    """The city line of the order page's address (read from the page)."""
    text = sb.browser.page.locator("#order p").last.inner_text()
    return text.splitlines()[2].rsplit(" ", 1)[0]


@register_task
class ShopBuyAgain(ShopTask):
    """Put an item of a past order back in the cart with "Buy again" (same options and quantity).

    The cart starts with one other line, which must stay.
    """

    id = "browser.shop-buy-again-v0"
    max_steps = 10

    def sample(self, rng):
        seed, products = _catalogue(rng)
        orders = shop.ShopApp(seed).orders
        items = [(o["id"], o["number"], it) for o in orders for it in o["items"]
                 if products[it["product_id"] - 1]["stock"] >= it["qty"]]
        oid, number, it = items[int(rng.integers(0, len(items)))]
        line = {k: it[k] for k in ("product_id", "size", "colour", "qty")}
        cart = _initial_cart(rng, products, 1, exclude=[it["product_id"]])
        return {"catalogue": seed, "order": oid, "number": number, "line": line, "cart": cart}

    def instruction(self, params):
        return (f"In the Northwind Market shop, put the {self.name(params, params['line']['product_id'])} from your "
                f"order #{params['number']} back in your cart, with the same options and quantity as in that order.")

    def check(self, state, params, answer, baseline):
        return all_of(cart_is(state["cart"], params["cart"] + [params["line"]]),
                      shop_unchanged(baseline, state, parts=("wishlist", "orders", "coupon")))

    def oracle(self, sb, params):
        yield from click_nav(sb, "#nav-orders")
        yield from click_nav(sb, f"tr.order-row[data-id='{params['order']}'] a.order-link")
        name = self.name(params, params["line"]["product_id"])
        yield click(sb, f"tr.order-item:has(a:text-is({name!r})) button.buy-again")
        wait_text(sb, "#again-msg", "in your cart")
        yield finish()


@register_task
class ShopCompareTabs(ShopTask):
    """Open two products of the listing in new tabs, compare their ratings, add the better one to the cart.

    The page starts on a category listing; both products are on it. Any colour is
    accepted; the checker wants one unit of the better-rated product and nothing else.
    """

    id = "browser.shop-compare-tabs-v0"
    max_steps = 14
    start_page = ""

    def sample(self, rng):
        seed, products = _catalogue(rng)
        app = shop.ShopApp(seed)
        while True:
            cat = str(rng.choice([c for c, v in shop.CATEGORIES.items() if not v[3]]))
            first = app.search(category=cat, sort="featured")[:shop.PER_PAGE]
            a, b = (first[int(i)] for i in rng.choice(len(first), size=2, replace=False))
            if a["rating"] != b["rating"] and a["stock"] > 0 and b["stock"] > 0:
                best = a if a["rating"] > b["rating"] else b
                return {"catalogue": seed, "category": cat, "a": a["id"], "b": b["id"], "best": best["id"]}

    def setup(self, sb, params):
        self.start_page = f"index.html?category={params['category'].replace(' ', '%20')}"
        super().setup(sb, params)

    def instruction(self, params):
        a, b = self.name(params, params["a"]), self.name(params, params["b"])
        return (f"On this Northwind Market page, open {a} and {b} in new tabs, compare their customer ratings, "
                f"and add 1 of the better-rated one (any colour) to your cart.")

    def read_state(self, sb, params):
        return {**super().read_state(sb, params), "tabs": [p.url for p in sb.browser.context.pages]}

    def check(self, state, params, answer, baseline):
        shown = {int(m.group(1)) for u in state["tabs"] for m in [re.search(r"/shop/product\.html\?id=(\d+)", u)] if m}
        if not {params["a"], params["b"]} <= shown:
            return CheckResult.failed("both products must be open in tabs of their own "
                                      f"(open product tabs: {sorted(shown) or 'none'})")
        return all_of(cart_is(state["cart"], [{"product_id": params["best"], "qty": 1, "size": ""}]),
                      shop_unchanged(baseline, state, parts=("wishlist", "orders", "coupon")))

    def oracle(self, sb, params):
        for n, pid in enumerate((params["a"], params["b"]), start=2):
            yield click(sb, f".product-card[data-id='{pid}'] a.product-link", button="middle")
            wait_tabs(sb, n)
        tabs = {}
        for i in (1, 2):
            wait_ready(sb, i)
            tabs[i] = float(page_of(sb, i).locator("#product-rating").inner_text())
        best_tab = 1 if tabs[1] > tabs[2] else 2
        yield {"action_type": "hotkey", "keys": ["ctrl", str(best_tab + 1)]}
        colour = page_of(sb, best_tab).locator("#colour option").nth(1).inner_text()
        yield from choose(sb, "#colour", colour, tab=best_tab)
        yield click(sb, "#add-to-cart", tab=best_tab)
        wait_text(sb, "#cart-msg", "Added", tab=best_tab)
        yield finish()


@register_task
class ShopFindBuyCheckout(ShopTask):
    """Find the cheapest in-stock product matching a category, a brand and a price cap; buy 2 with options.

    Then check out with a given address and shipping option. The longest shop flow:
    filters, sort, product options, cart, checkout form, confirmation modal (about 35 steps).
    """

    id = "browser.shop-find-buy-checkout-v0"
    max_steps = 56

    def sample(self, rng):
        seed, products = _catalogue(rng)
        while True:
            cat = str(rng.choice(list(shop.CATEGORIES)))
            brand = str(rng.choice(sorted({p["brand"] for p in products if p["category"] == cat})))
            mine = [p for p in products if p["category"] == cat and p["brand"] == brand]
            cap = int(np.median([p["price"] for p in mine])) + 1
            hits = sorted((p for p in mine if p["stock"] >= 2 and p["price"] <= cap), key=lambda p: (p["price"], p["id"]))
            if len(hits) >= 2 and hits[0]["price"] != hits[1]["price"] and not any(
                    p["price"] < hits[0]["price"] and p["stock"] == 1 for p in mine):
                p = hits[0]
                line = {"product_id": p["id"], **_options(rng, p), "qty": 2}
                return {"catalogue": seed, "category": cat, "brand": brand, "cap": cap, "line": line,
                        "address": _address(rng), "payment": _card(rng),
                        "shipping": str(rng.choice(list(shop.SHIPPING)))}

    def instruction(self, params):
        ln = params["line"]
        opts = (f"size {ln['size']}, " if ln["size"] else "") + f"colour {ln['colour']}"
        return (f"In the Northwind Market shop, find the cheapest {params['category']} product by {params['brand']} "
                f"that costs at most ${params['cap']} and is in stock. Buy 2 of it ({opts}). "
                + _checkout_text(params))

    def check(self, state, params, answer, baseline):
        return all_of(order_placed(baseline, state, [params["line"]], params["address"], params["shipping"]),
                      shop_unchanged(baseline, state, parts=("wishlist",)))

    def oracle(self, sb, params):
        yield from click_nav(sb, f"a.cat-link[data-cat={params['category']!r}]")
        yield from choose(sb, "#brand", params["brand"], navigates=True)
        yield click(sb, "#max")
        yield from type_nav(sb, f"{params['cap']}\n")
        yield from click_nav(sb, "#instock")
        yield from choose(sb, "#sort", "Price: low", navigates=True)
        yield from click_nav(sb, ".product-card a.product-link")
        yield from _set_options(sb, params["line"])
        yield from _checkout_steps(sb, params)
        yield finish()


@register_task
class ShopCountAnswer(ShopTask):
    """Count the out-of-stock products of a category up to a price (the list spans two pages)."""

    id = "browser.shop-count-answer-v0"
    max_steps = 10

    def sample(self, rng):
        seed, products = _catalogue(rng)
        while True:
            cat = str(rng.choice(list(shop.CATEGORIES)))
            prices = sorted(p["price"] for p in products if p["category"] == cat)
            cap = int(prices[int(rng.integers(12, 17))]) + 1
            hits = [p for p in products if p["category"] == cat and p["price"] <= cap]
            out = sum(p["stock"] == 0 for p in hits)
            if len(hits) > shop.PER_PAGE and out:
                return {"catalogue": seed, "category": cat, "cap": cap, "answer": out}

    def instruction(self, params):
        return (f"In the Northwind Market shop, how many {params['category']} products that cost at most "
                f"${params['cap']} are out of stock? Answer with the number only.")

    def check(self, state, params, answer, baseline):
        return all_of(answer_matches(answer, str(params["answer"]), numeric=True), shop_unchanged(baseline, state))

    def oracle(self, sb, params):
        yield from click_nav(sb, f"a.cat-link[data-cat={params['category']!r}]")
        yield click(sb, "#max")
        yield from type_nav(sb, f"{params['cap']}\n")
        count = sb.browser.page.locator(".product-card .stock.out").count()
        yield from click_nav(sb, "#pager a.next")
        count += sb.browser.page.locator(".product-card .stock.out").count()
        yield finish(str(count))
