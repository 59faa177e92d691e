"""Browser tasks on the Shop web app (assets/web/shop/, backend tasks/webapps/shop.py): search, filters, cart, past orders.

## Description
"Northwind Market": a catalogue of 144 seeded products (8 categories, brands, prices,
ratings, stock, sizes, colours) with search, filters, sort and pagination; product pages
with option dropdowns; a cart with coupons; a checkout form with field validation and a
confirmation modal; order history with details and "Buy again"; a wishlist. The tasks
here answer questions from the listings and past orders, edit the cart and compare
products in tabs. Options, wishlist and checkout: `browser_shop_checkout.py`.

## Action Space / Observation Space
Those of `BrowserEnv` (the whole 1280×800 screen; clicks, keys, typing, scrolls).

## Rewards
1.0 when the task's checker passes on the shop backend's state (`ShopApp.state()`: cart,
wishlist, coupon, orders) and, for questions, on the `finished(content=...)` answer as
`reward.answers.match_answer` reads it (one number, or the whole answer one name: a list
of candidates fails); the checker also requires everything the task did not ask for to
be as it was.

## Starting State
A catalogue seed and the task's targets are drawn from the reset seed; the app is
loaded fresh at setup (the cart as the task needs) and the page opens on the
catalogue (or a category listing).

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
* v1 (shop-cheapest-answer, shop-top-rated-answer, shop-count-answer, shop-order-city-answer):
  answers judged by `match_answer`; shop-count-answer draws its count uniformly (1 to 14 sold-out
  products, set by the task) and states its price cap in cents; the test split's catalogues have
  product names, prices and order cities of their own.
"""

from __future__ import annotations

import re

from hybridgym.reward import CheckResult
from hybridgym.reward.answers import Answer, match_answer
from hybridgym.reward.checkers import all_of, holds
from hybridgym.reward.shop import cart_is, shop_unchanged
from hybridgym.tasks.webapps import shop

from .base import Outcome, register_task
from .kit import actions as act
from .kit.web import ShopTask, choose, click, click_nav, fill, page_of, type_nav, wait_ready, wait_tabs, wait_text


def _listing(sb, params: dict):
    """Oracle steps: open the listing of the task's category."""
    yield from click_nav(sb, f"a.cat-link[data-cat={params['category']!r}]")


def _answer_checked(state, params, baseline, outcome: Outcome, expected: Answer) -> CheckResult:
    return all_of(match_answer(outcome.answer, expected), shop_unchanged(baseline, state))


def _open_order(sb, oid: int):
    yield from click_nav(sb, "#nav-orders")
    yield from click_nav(sb, f"tr.order-row[data-id='{oid}'] a.order-link")


@register_task(id="browser.shop-cheapest-answer-v1", max_steps=16)
class ShopCheapestAnswer(ShopTask):
    """Answer with the price of the cheapest in-stock product of a category and brand.

    Needs the category, brand, availability filters and the sort (or reading every
    page). The answer is checked as a number; the shop's state must be untouched.
    """

    def sample_for(self, rng, app):
        products = app.products
        while True:
            cat, in_cat = shop.sample_category(rng, products)
            brand, mine = shop.sample_brand(rng, in_cat)
            hits = sorted((p["price"], p["id"]) for p in mine if p["stock"] > 0)
            if len(hits) >= 2 and hits[0][0] != hits[1][0]:
                return {"category": cat, "brand": brand, "price": hits[0][0]}

    def instruction(self, params):
        return (f"In the Northwind Market shop, what is the price of the cheapest {params['category']} product "
                f"by {params['brand']} that is in stock? Answer with the price only.")

    def expected_answer(self, params):
        return Answer(params["price"], kind="number", currency="$", context=self.instruction(params))

    def check(self, state, params, outcome: Outcome, baseline):
        return _answer_checked(state, params, baseline, outcome, self.expected_answer(params))

    def oracle(self, sb, params):
        yield from _listing(sb, params)
        yield from choose(sb, "#brand", params["brand"], navigates=True)
        yield from click_nav(sb, "#instock")
        yield from choose(sb, "#sort", "Price: low", navigates=True)
        price = sb.browser.page.locator(".product-card .price").first.inner_text()
        yield act.finish(price.lstrip("$"))


@register_task(id="browser.shop-top-rated-answer-v1", max_steps=16)
class ShopTopRatedAnswer(ShopTask):
    """Answer with the name of the best-rated product of a category within a price range.

    The range is chosen so that exactly one product has the top rating in it.
    """

    def sample_for(self, rng, app):
        products = app.products
        while True:
            cat, in_cat = shop.sample_category(rng, products)
            prices = sorted(p["price"] for p in in_cat)
            lo = int(prices[int(rng.integers(0, 6))])
            hi = int(prices[int(rng.integers(10, 17))]) + 1
            inside = [p for p in in_cat if lo <= p["price"] <= hi]
            top = max(p["rating"] for p in inside)
            best = [p for p in inside if p["rating"] == top]
            if len(best) == 1 and len(inside) >= 5:
                return {"category": cat, "min": lo, "max": hi, "answer": best[0]["name"]}

    def instruction(self, params):
        return (f"In the Northwind Market shop, which {params['category']} product priced between "
                f"${params['min']} and ${params['max']} has the highest customer rating? Answer with its full name.")

    def expected_answer(self, params):
        return Answer(params["answer"], context=self.instruction(params))

    def check(self, state, params, outcome: Outcome, baseline):
        return _answer_checked(state, params, baseline, outcome, self.expected_answer(params))

    def oracle(self, sb, params):
        yield from _listing(sb, params)
        yield click(sb, "#min")
        yield act.typed(str(params["min"]))
        yield act.keys("tab")
        yield from type_nav(sb, f"{params['max']}\n")
        yield from choose(sb, "#sort", "Customer", navigates=True)
        yield act.finish(sb.browser.page.locator(".product-card a.product-link").first.inner_text())


@register_task(id="browser.shop-count-answer-v1", max_steps=10)
class ShopCountAnswer(ShopTask):
    """Count the out-of-stock products of a category up to a price (the list spans two pages).

    The count is drawn first, uniformly from 1 to 14: the task sets that many of the listed
    products sold out (`params["stock"]`) and the others in stock."""

    def sample_for(self, rng, app):
        cat, in_cat = shop.sample_category(rng, app.products)
        ranked = sorted(in_cat, key=lambda p: (p["price"], p["id"]))
        pos = int(rng.integers(14, len(ranked)))
        if ranked[pos]["price"] == (ranked[pos + 1]["price"] if pos + 1 < len(ranked) else None):
            return None
        hits = ranked[:pos + 1]
        answer = int(rng.integers(1, 15))
        out = {int(i) for i in rng.choice(len(hits), size=answer, replace=False)}
        stock = {p["id"]: 0 if i in out else (p["stock"] or int(rng.integers(1, 40))) for i, p in enumerate(hits)}
        return {"category": cat, "cap": ranked[pos]["price"], "answer": answer, "stock": stock}

    def instruction(self, params):
        cap = params["cap"]
        cap = f"{cap:.2f}" if isinstance(cap, float) else str(cap)
        return (f"In the Northwind Market shop, how many {params['category']} products that cost at most "
                f"${cap} are out of stock? Answer with the number only.")

    def expected_answer(self, params):
        return Answer(params["answer"], kind="number", context=self.instruction(params))

    def check(self, state, params, outcome: Outcome, baseline):
        return _answer_checked(state, params, baseline, outcome, self.expected_answer(params))

    def oracle(self, sb, params):
        yield from _listing(sb, params)
        yield click(sb, "#max")
        cap = params["cap"]
        yield from type_nav(sb, (f"{cap:.2f}" if isinstance(cap, float) else str(cap)) + "\n")
        count = sb.browser.page.locator(".product-card .stock.out").count()
        yield from click_nav(sb, "#pager a.next")
        count += sb.browser.page.locator(".product-card .stock.out").count()
        yield act.finish(str(count))


@register_task(id="browser.shop-cart-edit-v0", max_steps=12)
class ShopCartEdit(ShopTask):
    """Change the quantity of one cart line and remove another.

    The cart starts with three lines; the checker wants the first changed, the
    second gone and the third as it was.
    """

    def sample_for(self, rng, app):
        products = app.products
        cart = shop.sample_cart(rng, products, 3)
        change, remove = (int(i) for i in rng.choice(3, size=2, replace=False))
        qty = int(rng.integers(3, 6))
        return {"cart": cart, "change": change, "remove": remove, "qty": qty}

    def instruction(self, params):
        c, r = params["cart"][params["change"]], params["cart"][params["remove"]]
        return (f"In your Northwind Market cart, set the quantity of {self.name(params, c['product_id'])} to "
                f"{params['qty']} and remove {self.name(params, r['product_id'])}.")

    def check(self, state, params, outcome: Outcome, baseline):
        want = [dict(ln) for i, ln in enumerate(params["cart"]) if i != params["remove"]]
        for ln in want:
            if ln == params["cart"][params["change"]]:
                ln["qty"] = params["qty"]
        return all_of(cart_is(state["cart"], want), shop_unchanged(baseline, state, parts=("wishlist", "orders", "coupon")))

    def oracle(self, sb, params):
        yield from click_nav(sb, "#nav-cart")
        yield from fill(sb, f"tr.cart-line:nth-child({params['change'] + 1}) input.qty", f"{params['qty']}\n")
        wait_ready(sb, f"[...document.querySelectorAll('input.qty')].some(i => i.value == '{params['qty']}')"
                       " && document.body.dataset.version >= 2")
        yield click(sb, f"tr.cart-line:nth-child({params['remove'] + 1}) button.remove")
        yield act.finish()


@register_task(id="browser.shop-order-city-answer-v1", max_steps=10)
class ShopOrderCityAnswer(ShopTask):
    """Answer which city the past order containing a given product was shipped to.

    Needs the order history and that order's detail page.
    """

    def sample_for(self, rng, app):
        orders = app.orders
        counts: dict[str, int] = {}
        for o in orders:
            for it in o["items"]:
                counts[it["name"]] = counts.get(it["name"], 0) + 1
        o = orders[int(rng.integers(0, len(orders)))]
        name = next((it["name"] for it in o["items"] if counts[it["name"]] == 1), None)
        if name is None:
            return None
        return {"product": name, "order": o["id"], "city": o["address"]["city"]}

    def instruction(self, params):
        return (f"In the Northwind Market shop, to which city was your past order containing "
                f"{params['product']} shipped? Answer with the city name.")

    def expected_answer(self, params):
        return Answer(params["city"], context=self.instruction(params))

    def check(self, state, params, outcome: Outcome, baseline):
        return _answer_checked(state, params, baseline, outcome, self.expected_answer(params))

    def oracle(self, sb, params):
        yield from _open_order(sb, params["order"])
        address = sb.browser.page.locator("#order p").last.inner_text()
        yield act.finish(address.splitlines()[2].rsplit(" ", 1)[0])   # the city line, less the postcode


@register_task(id="browser.shop-buy-again-v0", max_steps=10)
class ShopBuyAgain(ShopTask):
    """Put an item of a past order back in the cart with "Buy again" (same options and quantity).

    The cart starts with one other line, which must stay.
    """

    def sample_for(self, rng, app):
        products, orders = app.products, app.orders
        items = [(o["id"], o["number"], it) for o in orders for it in o["items"]
                 if products[it["product_id"] - 1]["stock"] >= it["qty"]]
        oid, number, it = items[int(rng.integers(0, len(items)))]
        line = {k: it[k] for k in ("product_id", "size", "colour", "qty")}
        cart = shop.sample_cart(rng, products, 1, exclude=[it["product_id"]])
        return {"order": oid, "number": number, "line": line, "cart": cart}

    def instruction(self, params):
        return (f"In the Northwind Market shop, put the {self.name(params, params['line']['product_id'])} from your "
                f"order #{params['number']} back in your cart, with the same options and quantity as in that order.")

    def check(self, state, params, outcome: Outcome, baseline):
        return all_of(cart_is(state["cart"], params["cart"] + [params["line"]]),
                      shop_unchanged(baseline, state, parts=("wishlist", "orders", "coupon")))

    def oracle(self, sb, params):
        yield from _open_order(sb, params["order"])
        name = self.name(params, params["line"]["product_id"])
        yield click(sb, f"tr.order-item:has(a:text-is({name!r})) button.buy-again")
        wait_text(sb, "#again-msg", "in your cart")
        yield act.finish()


@register_task(id="browser.shop-compare-tabs-v0", max_steps=14)
class ShopCompareTabs(ShopTask):
    """Open two products of the listing in new tabs, compare their ratings, add the better one to the cart.

    The page starts on a category listing; both products are on it. Any colour is
    accepted; the checker wants one unit of the better-rated product and nothing else.
    """

    def sample_for(self, rng, app):
        while True:
            cat = str(rng.choice([c for c, v in shop.CATEGORIES.items() if not v[3]]))
            first = app.search(category=cat, sort="featured")[:shop.PER_PAGE]
            a, b = (first[int(i)] for i in rng.choice(len(first), size=2, replace=False))
            if a["rating"] != b["rating"] and a["stock"] > 0 and b["stock"] > 0:
                best = a if a["rating"] > b["rating"] else b
                return {"category": cat, "a": a["id"], "b": b["id"], "best": best["id"]}

    def start(self, params):
        return f"/shop/index.html?category={params['category'].replace(' ', '%20')}"

    def instruction(self, params):
        a, b = self.name(params, params["a"]), self.name(params, params["b"])
        return (f"On this Northwind Market page, open {a} and {b} in new tabs, compare their customer ratings, "
                f"and add 1 of the better-rated one (any colour) to your cart.")

    def read_state(self, sb, params):
        return {**super().read_state(sb, params), "tabs": [p.url for p in sb.browser.context.pages]}

    def check(self, state, params, outcome: Outcome, baseline):
        shown = {int(m.group(1)) for u in state["tabs"] for m in [re.search(r"/shop/product\.html\?id=(\d+)", u)] if m}
        tabs = holds("both products open in tabs", {params["a"], params["b"]} <= shown,
                     f"both products must be open in tabs of their own (open product tabs: {sorted(shown) or 'none'})")
        return all_of(tabs, cart_is(state["cart"], [{"product_id": params["best"], "qty": 1, "size": ""}]),
                      shop_unchanged(baseline, state, parts=("wishlist", "orders", "coupon")))

    def oracle(self, sb, params):
        for n, pid in enumerate((params["a"], params["b"]), start=2):
            yield click(sb, f".product-card[data-id='{pid}'] a.product-link", button="middle")
            wait_tabs(sb, n)
        ratings = {}
        for i in (1, 2):
            wait_ready(sb, tab=i)
            ratings[i] = float(page_of(sb, i).locator("#product-rating").inner_text())
        best = 1 if ratings[1] > ratings[2] else 2
        yield act.keys("ctrl", str(best + 1))
        colour = page_of(sb, best).locator("#colour option").nth(1).inner_text()
        yield from choose(sb, "#colour", colour, tab=best)
        yield click(sb, "#add-to-cart", tab=best)
        wait_text(sb, "#cart-msg", "Added", tab=best)
        yield act.finish()
