"""Checkers of the Shop web app's state (tasks/webapps/shop.py `ShopApp.state()`): cart, wishlist and orders."""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from .checkers import CheckResult, all_of, checker, normalize_text

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
    exactly the order's quantities."""
    old = {o["id"] for o in before["orders"]}
    new = [o for o in after["orders"] if o["id"] not in old]
    if len(new) != 1:
        return CheckResult.failed(f"{len(new)} orders were placed, expected 1")
    o = new[0]
    got = sorted(_line(i) for i in o["items"])
    want = sorted(_line({"size": "", "colour": "", **i}) for i in items)
    if got != want:
        return CheckResult.failed(f"the order holds {got}, expected {want}")
    wrong = [k for k, v in address.items()
             if normalize_text(str(o["address"].get(k, ""))) != normalize_text(str(v))]
    if wrong:
        return CheckResult.failed(f"the order's address differs in {wrong}: {[o['address'].get(k) for k in wrong]}")
    if o["shipping_method"] != shipping:
        return CheckResult.failed(f"the order ships by {o['shipping_method']}, expected {shipping}")
    if o["coupon"] != coupon:
        return CheckResult.failed(f"the order's coupon is {o['coupon'] or 'none'!r}, expected {coupon or 'none'!r}")
    if payment is not None:
        paid = o.get("payment") or {}
        want = {"card": re.sub(r"[\s-]", "", str(payment["card"])), "expiry": re.sub(r"\s", "", str(payment["expiry"])),
                "cvc": str(payment["cvc"]).strip()}
        wrong = [k for k, v in want.items() if str(paid.get(k, "")) != v]
        if wrong:
            return CheckResult.failed(f"the order was paid with another {', '.join(wrong)} than the one asked for")
    if "stock" in before and "stock" in after:
        left = dict(before["stock"])
        for it in o["items"]:
            left[it["product_id"]] = left.get(it["product_id"], 0) - it["qty"]
        if dict(after["stock"]) != left:
            return CheckResult.failed("the stock changed by more than the new order's quantities")
    kept = [x for x in after["orders"] if x["id"] in old]
    return all_of(CheckResult.passed(f"order #{o['number']} placed as asked"),
                  shop_unchanged({"orders": before["orders"]}, {"orders": kept}, parts=("orders",)))
