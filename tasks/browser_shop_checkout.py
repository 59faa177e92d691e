"""Browser tasks on the Shop web app (assets/web/shop/, backend tasks/webapps/shop.py): product options, wishlist, checkout.

## Description
"Northwind Market": a catalogue of 144 seeded products (8 categories, brands, prices,
ratings, stock, sizes, colours) with search, filters, sort and pagination; product pages
with option dropdowns; a cart with coupons; a checkout form with field validation and a
confirmation modal; order history; a wishlist. The tasks here pick product options, fill
the wishlist and go through checkout (the longest: find a product by filters, buy it,
check out; about 35 steps). Browsing questions and cart edits: `browser_shop.py`.

## Action Space / Observation Space
Those of `BrowserEnv` (the whole 1280×800 screen; clicks, keys, typing, scrolls).

## Rewards
1.0 when the task's checker passes on the shop backend's state (`ShopApp.state()`: cart,
wishlist, coupon, orders, stock); the checker also requires everything the task did not
ask for to be as it was. A checkout's order must hold the asked-for items, address,
shipping option, coupon and card (number, expiry, CVC), and nothing else.

## Starting State
A catalogue seed and the task's targets (a shopper's address and card, the options)
are drawn from the reset seed; the app is loaded fresh at setup (cart, wishlist as the
task needs) and the page opens on the catalogue.

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
* v1 (shop-checkout, shop-coupon-checkout, shop-find-buy-checkout): the order must be paid with
  the card, expiry and CVC the instruction gives (any valid card passed before), and the stock
  must drop by exactly the order's quantities. The test split's catalogues, shoppers and
  addresses have names of their own.
"""

from __future__ import annotations

import numpy as np

from hybridgym.reward import CheckResult
from hybridgym.reward.checkers import all_of, holds
from hybridgym.reward.shop import cart_is, order_placed, shop_unchanged
from hybridgym.tasks.webapps import shop

from .base import Outcome, register_task
from .kit import actions as act
from .kit.web import ShopTask, choose, click, click_nav, fill, type_nav, wait_text


def _search_open(sb, name: str):
    """Oracle steps: search a product by its full name and open its page."""
    yield from fill(sb, "#search", name + "\n", navigates=True)
    yield from click_nav(sb, f".product-card:has(a.product-link:text-is({name!r})) a.product-link")


def _set_options(sb, line: dict):
    """Oracle steps on a product page: size, colour and quantity, then Add to cart."""
    if line.get("size"):
        yield from choose(sb, "#size", line["size"])
        yield act.keys("tab")
        yield act.typed(line["colour"])      # a focused closed <select> picks by typing
    else:
        yield from choose(sb, "#colour", line["colour"])
    if line["qty"] != 1:
        yield act.keys("tab")                # tabbing into the field selects its value
        yield act.typed(str(line["qty"]))
    yield click(sb, "#add-to-cart")
    wait_text(sb, "#cart-msg", "Added")


def _checkout_steps(sb, params: dict, start_at_cart: bool = False):
    """Oracle steps from any page: cart, checkout form, review modal, place order."""
    if not start_at_cart:
        yield from click_nav(sb, "#nav-cart")
    yield from click_nav(sb, "#checkout-btn")
    a, pay = params["address"], params["payment"]
    for field in ("name", "phone", "street", "email", "city", "postcode"):
        yield click(sb, f"#{field}")
        yield act.typed(a[field])
    yield click(sb, f"#ship-{params['shipping']}")
    for field in ("card", "expiry", "cvc"):
        yield click(sb, f"#{field}")
        yield act.typed(pay[field])
    yield click(sb, "#review")
    sb.browser.page.wait_for_selector("#confirm-modal.open #place-order", state="visible", timeout=20000)
    yield from click_nav(sb, "#place-order")


def _checkout_text(params: dict) -> str:
    a, pay = params["address"], params["payment"]
    return (f"Ship to {a['name']}, {a['street']}, {a['city']}, postcode {a['postcode']}; phone {a['phone']}, "
            f"email {a['email']}; shipping: {shop.SHIPPING[params['shipping']][0]}. Pay with card {pay['card']}, "
            f"expiry {pay['expiry']}, CVC {pay['cvc']}.")


def _order_checked(state, params, baseline, lines, **kw) -> CheckResult:
    return all_of(order_placed(baseline, state, lines, params["address"], params["shipping"],
                               payment=params["payment"], **kw),
                  shop_unchanged(baseline, state, parts=("wishlist",)))


@register_task(id="browser.shop-add-options-v0", max_steps=20)
class ShopAddWithOptions(ShopTask):
    """Find a product by name and add it to the cart with a given size, colour and quantity.

    The checker requires the cart to hold exactly that one line, and the wishlist and
    orders untouched. About 12 steps: search, open, pick options, add.
    """

    def sample_for(self, rng, app):
        products = app.products
        p = products[int(rng.choice([q["id"] for q in products if q["sizes"] and q["stock"] >= 3])) - 1]
        line = {"product_id": p["id"], **shop.sample_options(rng, p), "qty": int(rng.integers(2, 4))}
        return {"line": line}

    def instruction(self, params):
        line = params["line"]
        return f"In the Northwind Market shop, add {shop.describe(line, self.name(params, line['product_id']))} to the cart."

    def check(self, state, params, outcome: Outcome, baseline):
        return all_of(cart_is(state["cart"], [params["line"]]),
                      shop_unchanged(baseline, state, parts=("wishlist", "orders", "coupon")))

    def oracle(self, sb, params):
        yield from _search_open(sb, self.name(params, params["line"]["product_id"]))
        yield from _set_options(sb, params["line"])
        yield act.finish()


@register_task(id="browser.shop-wishlist-add-v0", max_steps=16)
class ShopWishlistAdd(ShopTask):
    """Add two named products to the wishlist (which already holds one other product).

    About 9 steps: search and open each product, click its wishlist button.
    """

    def sample_for(self, rng, app):
        products = app.products
        a, b, c = (int(i) + 1 for i in rng.choice(len(products), size=3, replace=False))
        return {"wishlist": [c], "add": [a, b]}

    def instruction(self, params):
        a, b = (self.name(params, i) for i in params["add"])
        return f"In the Northwind Market shop, add {a} and {b} to your wishlist."

    def check(self, state, params, outcome: Outcome, baseline):
        want = sorted(params["wishlist"] + params["add"])
        wish = [holds(f"product {i} in the wishlist", i in state["wishlist"],
                      f"the wishlist holds products {sorted(state['wishlist'])}, expected {want}") for i in params["add"]]
        return all_of(*wish, holds("nothing else in the wishlist", set(state["wishlist"]) <= set(want),
                                   f"the wishlist holds products {sorted(state['wishlist'])}, expected {want}", guard=True),
                      holds("the wishlist had each product once", len(state["wishlist"]) == len(set(state["wishlist"])),
                            f"the wishlist holds products {sorted(state['wishlist'])}, expected {want}", guard=True),
                      holds("earlier wishlist kept", set(params["wishlist"]) <= set(state["wishlist"]),
                            f"the wishlist holds products {sorted(state['wishlist'])}, expected {want}", guard=True),
                      shop_unchanged(baseline, state, parts=("cart", "orders", "coupon")))

    def oracle(self, sb, params):
        for pid in params["add"]:
            yield from _search_open(sb, self.name(params, pid))
            yield click(sb, "#wishlist-btn")
            wait_text(sb, "#wishlist-btn", "In wishlist")
        yield act.finish()


@register_task(id="browser.shop-wishlist-to-cart-v0", max_steps=18)
class ShopWishlistToCart(ShopTask):
    """Move a wishlist product to the cart: add it with given options, then take it off the wishlist.

    The wishlist starts with three products; the cart with one line.
    """

    def sample_for(self, rng, app):
        products = app.products
        pool = [p["id"] for p in products if p["stock"] >= 3]
        wish = [int(i) for i in rng.choice(pool, size=3, replace=False)]
        move = wish[int(rng.integers(0, 3))]
        cart = shop.sample_cart(rng, products, 1, exclude=wish)
        line = {"product_id": move, **shop.sample_options(rng, products[move - 1]), "qty": 1}
        return {"wishlist": wish, "cart": cart, "line": line}

    def instruction(self, params):
        ln = params["line"]
        return (f"In the Northwind Market shop, move {self.name(params, ln['product_id'])} from your wishlist to "
                f"your cart: add 1 of it" + (f" in size {ln['size']}" if ln["size"] else "") +
                f", colour {ln['colour']}, and remove it from the wishlist.")

    def check(self, state, params, outcome: Outcome, baseline):
        want = [w for w in params["wishlist"] if w != params["line"]["product_id"]]
        return all_of(holds("the wishlist without the product", sorted(state["wishlist"]) == sorted(want),
                            f"the wishlist holds {sorted(state['wishlist'])}, expected {sorted(want)}"), cart_is(state["cart"], params["cart"] + [params["line"]]),
                      shop_unchanged(baseline, state, parts=("orders", "coupon")))

    def oracle(self, sb, params):
        yield from click_nav(sb, "#nav-wishlist")
        yield from click_nav(sb, f".wish-item[data-id='{params['line']['product_id']}'] a.product-link")
        yield from _set_options(sb, params["line"])
        yield click(sb, "#wishlist-btn")
        wait_text(sb, "#wishlist-btn", "Add to wishlist")
        yield act.finish()


@register_task(id="browser.shop-checkout-v1", max_steps=34)
class ShopCheckout(ShopTask):
    """Check out the cart as it is, with a given address, shipping option and card.

    The checker requires one new order holding the cart's lines, the address and the
    shipping method asked for, earlier orders untouched. About 25 steps.
    """

    def sample_for(self, rng, app):
        products = app.products
        return {"cart": shop.sample_cart(rng, products, int(rng.integers(1, 3))),
                "address": shop.sample_address(rng), "payment": shop.sample_card(rng),
                "shipping": str(rng.choice(list(shop.SHIPPING)))}

    def instruction(self, params):
        return "In the Northwind Market shop, check out the items in your cart. " + _checkout_text(params)

    def check(self, state, params, outcome: Outcome, baseline):
        return _order_checked(state, params, baseline, params["cart"])

    def oracle(self, sb, params):
        yield from _checkout_steps(sb, params)
        yield act.finish()


@register_task(id="browser.shop-coupon-checkout-v1", max_steps=38)
class ShopCouponCheckout(ShopTask):
    """Apply a coupon code in the cart, then check out with a given address and shipping option.

    The cart starts with two lines; the order must carry the coupon.
    """

    def sample_for(self, rng, app):
        products = app.products
        return {"cart": shop.sample_cart(rng, products, 2), "address": shop.sample_address(rng),
                "payment": shop.sample_card(rng), "shipping": str(rng.choice(["standard", "express", "nextday"])),
                "coupon": str(rng.choice(list(shop.COUPONS)))}

    def instruction(self, params):
        return (f"In the Northwind Market shop, apply the coupon code {params['coupon']} to your cart and check out. "
                + _checkout_text(params))

    def check(self, state, params, outcome: Outcome, baseline):
        return _order_checked(state, params, baseline, params["cart"], coupon=params["coupon"])

    def oracle(self, sb, params):
        yield from click_nav(sb, "#nav-cart")
        yield click(sb, "#coupon")
        yield act.typed(params["coupon"] + "\n")
        wait_text(sb, "#coupon-msg", "applied")
        yield from _checkout_steps(sb, params, start_at_cart=True)
        yield act.finish()


@register_task(id="browser.shop-find-buy-checkout-v1", max_steps=56)
class ShopFindBuyCheckout(ShopTask):
    """Find the cheapest in-stock product matching a category, a brand and a price cap; buy 2 with options.

    Then check out with a given address and shipping option. The longest shop flow:
    filters, sort, product options, cart, checkout form, confirmation modal (about 35 steps).
    """

    def sample_for(self, rng, app):
        products = app.products
        while True:
            cat, in_cat = shop.sample_category(rng, products)
            brand, mine = shop.sample_brand(rng, in_cat)
            cap = int(np.median([p["price"] for p in mine])) + 1
            hits = sorted((p for p in mine if p["stock"] >= 2 and p["price"] <= cap), key=lambda p: (p["price"], p["id"]))
            if len(hits) >= 2 and hits[0]["price"] != hits[1]["price"] and not any(
                    p["price"] < hits[0]["price"] and p["stock"] == 1 for p in mine):
                p = hits[0]
                line = {"product_id": p["id"], **shop.sample_options(rng, p), "qty": 2}
                return {"category": cat, "brand": brand, "cap": cap, "line": line,
                        "address": shop.sample_address(rng), "payment": shop.sample_card(rng),
                        "shipping": str(rng.choice(list(shop.SHIPPING)))}

    def instruction(self, params):
        ln = params["line"]
        opts = (f"size {ln['size']}, " if ln["size"] else "") + f"colour {ln['colour']}"
        return (f"In the Northwind Market shop, find the cheapest {params['category']} product by {params['brand']} "
                f"that costs at most ${params['cap']} and is in stock. Buy 2 of it ({opts}). "
                + _checkout_text(params))

    def check(self, state, params, outcome: Outcome, baseline):
        return _order_checked(state, params, baseline, [params["line"]])

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
        yield act.finish()
