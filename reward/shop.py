"""Checkers of the Shop web app's state (tasks/webapps/shop.py `ShopApp.state()`): cart, wishlist and orders."""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from .checkers import CheckResult, Condition, as_condition, checker, judged, normalize_text, not_judged

_PARTS = ("cart", "wishlist", "coupon", "orders")


def _line(ln: Mapping) -> tuple:
    return (ln["product_id"], ln.get("size", ""), ln.get("colour", ""), ln["qty"])


@checker(guard=True)
def shop_unchanged(before: Mapping, after: Mapping, parts: Sequence[str] = _PARTS) -> CheckResult:
    """The named parts of the shop state (cart, wishlist, coupon, orders) are as they were."""
    changed = [p for p in parts if (sorted(map(_line, after[p])) != sorted(map(_line, before[p])) if p == "cart"
                                    else after[p] != before[p])]
    if changed:
        return CheckResult.failed(f"the shop's {', '.join(changed)} changed, and the task did not ask for that")
    return CheckResult.passed(f"{', '.join(parts)} unchanged")


@checker
def cart_is(cart: Sequence[Mapping], expected: Sequence[Mapping]) -> CheckResult:
    """The cart holds exactly the expected lines (product, size, colour, quantity), in any order.

    An expected line may leave out "colour" (or "size") to accept any value."""
    left = [dict(ln) for ln in cart]
    for exp in expected:
        hit = next((ln for ln in left if all(ln.get(k, "") == v for k, v in exp.items())), None)
        if hit is None:
            have = [f"{ln['product_id']}/{ln.get('size', '')}/{ln.get('colour', '')}x{ln['qty']}" for ln in cart]
            return CheckResult.failed(f"the cart has no line {dict(exp)}; it has {have}")
        left.remove(hit)
    if left:
        return CheckResult.failed(f"the cart has {len(left)} line(s) that were not asked for: "
                                  f"{[ln['product_id'] for ln in left]}")
    return CheckResult.passed(f"the cart holds the {len(expected)} expected line(s)")


@checker
def order_placed(before: Mapping, after: Mapping, items: Sequence[Mapping], address: Mapping[str, str],
                 shipping: str, coupon: str = "", payment: Mapping[str, str] | None = None) -> CheckResult:
    """Exactly one new order, with these items, this address, this shipping method and coupon, and
    (when given) paid with this card, expiry and CVC; earlier orders intact, and the stock less
    exactly the order's quantities.

    Conditions: "one order placed", then goals for its items, address, shipping, coupon, payment (when
    asked) and the stock (not judged without the one order), and the guard "earlier orders intact"."""
    old = {o["id"] for o in before["orders"]}
    new = [o for o in after["orders"] if o["id"] not in old]
    one = Condition("one order placed", len(new) == 1, f"{len(new)} orders were placed, expected 1")
    names = ["the order's items", "the order's address", "the order's shipping", "the order's coupon"]
    names += ["the order's payment"] * (payment is not None) + ["the stock less the order"] * ("stock" in before and "stock" in after)
    kept = [x for x in after["orders"] if x["id"] in old]
    intact = as_condition("earlier orders intact", shop_unchanged({"orders": before["orders"]}, {"orders": kept},
                                                                   parts=("orders",)), guard=True)
    if not one.held:
        return judged([one, *not_judged(names, one.message), intact], "")
    o = new[0]
    got = sorted(_line(i) for i in o["items"])
    want = sorted(_line({"size": "", "colour": "", **i}) for i in items)
    wrong = [k for k, v in address.items()
             if normalize_text(str(o["address"].get(k, ""))) != normalize_text(str(v))]
    conditions = [one, Condition(names[0], got == want, f"the order holds {got}, expected {want}"),
                  Condition(names[1], not wrong, f"the order's address differs in {wrong}: "
                                                 f"{[o['address'].get(k) for k in wrong]}"),
                  Condition(names[2], o["shipping_method"] == shipping,
                            f"the order ships by {o['shipping_method']}, expected {shipping}"),
                  Condition(names[3], o["coupon"] == coupon,
                            f"the order's coupon is {o['coupon'] or 'none'!r}, expected {coupon or 'none'!r}")]
    if payment is not None:
        paid = o.get("payment") or {}
        want_pay = {"card": re.sub(r"[\s-]", "", str(payment["card"])),
                    "expiry": re.sub(r"\s", "", str(payment["expiry"])), "cvc": str(payment["cvc"]).strip()}
        bad = [k for k, v in want_pay.items() if str(paid.get(k, "")) != v]
        conditions.append(Condition("the order's payment", not bad,
                                    f"the order was paid with another {', '.join(bad)} than the one asked for"))
    if "stock" in before and "stock" in after:
        left = dict(before["stock"])
        for it in o["items"]:
            left[it["product_id"]] = left.get(it["product_id"], 0) - it["qty"]
        conditions.append(Condition("the stock less the order", dict(after["stock"]) == left,
                                    "the stock changed by more than the new order's quantities"))
    return judged([*conditions, intact], f"order #{o['number']} placed as asked")
