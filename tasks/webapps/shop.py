"""Backend of the Shop web app (assets/web/shop/): a seeded catalogue, cart, wishlist, coupons, checkout and orders.

`ShopApp(seed)` holds one episode's state in memory; `install(server, seed)` makes
one and answers `/shop/api/...` on the env's AppServer with it; `app_of(server)`
finds it again for a task's `read_state`; `state()` is the snapshot checkers read.

API (JSON; errors are `{"error": ..., "fields": {field: message}}` with status 400/404):
    GET    meta                       categories, brands per category, shipping options, counts
    GET    products?q=&category=&brand=&min=&max=&instock=1&sort=&page=&per=
    GET    products/<id>
    GET    cart                       lines with product data, subtotal, coupon, discount
    POST   cart {product_id, qty, size?, colour?}    adds (merges an identical line)
    PUT    cart/<line>{qty}           DELETE cart/<line>
    POST   coupon {code}              DELETE coupon
    GET    wishlist                   POST wishlist {product_id}    DELETE wishlist/<product_id>
    POST   checkout {name, street, city, postcode, phone, email, card, expiry, cvc, shipping, dry_run?}
                                      dry_run: validate and price only (the Review step)
    GET    orders                     GET orders/<id>
"""

from __future__ import annotations

import copy
import re
import threading

import numpy as np

from hybridgym.sandbox import AppServer, Request, Response
from hybridgym.tasks.webapps import Installed

CATEGORIES = {
    # category: (nouns, brands, price range, sizes, colours)
    "Running Shoes": (["Runner", "Trail Racer", "Road Glide", "Tempo Trainer", "Marathon Flex", "Sprint Lite"],
                      ["Stridex", "Kinetica", "Aerofoot", "Pacewell"], (45, 180),
                      ["38", "39", "40", "41", "42", "43", "44", "45"], ["Black", "White", "Blue", "Red", "Grey"]),
    "T-Shirts": (["Crew Tee", "V-Neck Tee", "Pocket Tee", "Graphic Tee", "Henley", "Tech Tee"],
                 ["Northline", "Urbanite", "Cotton & Co", "Basico"], (9, 45),
                 ["XS", "S", "M", "L", "XL", "XXL"], ["White", "Black", "Navy", "Olive", "Grey", "Red"]),
    "Jackets": (["Rain Shell", "Puffer", "Fleece Jacket", "Softshell", "Parka", "Windbreaker"],
                ["Northline", "Alpora", "Stormguard", "Urbanite"], (49, 320),
                ["S", "M", "L", "XL", "XXL"], ["Black", "Navy", "Olive", "Red", "Yellow"]),
    "Backpacks": (["Daypack", "Commuter Pack", "Hiking Pack", "Laptop Backpack", "Rolltop Pack", "Sling Bag"],
                  ["Alpora", "Trekka", "Carryall", "Stormguard"], (25, 160),
                  [], ["Black", "Grey", "Blue", "Green", "Orange"]),
    "Headphones": (["Wireless Earbuds", "Over-Ear Headphones", "Sport Earphones", "Studio Monitor", "Noise Cancelling Headset", "Kids Headphones"],
                   ["Sonique", "Bassline", "Auralis", "Tonewave"], (19, 380),
                   [], ["Black", "White", "Silver", "Blue"]),
    "Watches": (["Field Watch", "Dive Watch", "Smartwatch", "Chronograph", "Dress Watch", "Fitness Band"],
                ["Horlo", "Tickwell", "Auralis", "Meridian"], (29, 450),
                [], ["Black", "Silver", "Gold", "Rose Gold"]),
    "Kitchen": (["Chef Knife", "Cast Iron Skillet", "French Press", "Stand Mixer", "Kettle", "Cutting Board"],
                ["Cucina", "Hearthline", "Brewmaster", "Steelcraft"], (12, 420),
                [], ["Steel", "Black", "Red", "Cream"]),
    "Desk Lamps": (["LED Desk Lamp", "Architect Lamp", "Clip Lamp", "Banker Lamp", "Reading Light", "Smart Lamp"],
                   ["Luma", "Brightway", "Steelcraft", "Nordlys"], (15, 190),
                   [], ["Black", "White", "Brass", "Green"]),
}
ADJECTIVES = ["Classic", "Pro", "Air", "Ultra", "Eco", "Prime", "Nova", "Summit", "Vista", "Core", "Edge", "Flex",
              "Urban", "Pulse", "Zen", "Atlas", "Orbit", "Terra", "Swift", "Echo"]
SHIPPING = {"standard": ("Standard (3-5 days)", 4.99), "express": ("Express (1-2 days)", 12.99),
            "nextday": ("Next day", 19.99), "pickup": ("Pick up in store", 0.0)}
FREE_STANDARD_OVER = 75.0
COUPONS = {"SAVE10": ("10% off your order", "percent", 10.0, 0.0),
           "WELCOME5": ("5.00 off orders over 40.00", "amount", 5.0, 40.0),
           "FREESHIP": ("Free shipping", "shipping", 0.0, 0.0)}
TODAY = "2026-03-14"
PER_PAGE = 12
FIRST_ORDER_NUMBER = 10231
_STREETS = ["Elm Street", "Harbour Road", "Mill Lane", "Station Avenue", "Queen's Walk", "Orchard Close"]
_CITIES = ["Bristol", "Leeds", "Norwich", "York", "Bath", "Exeter"]


def money(x: float) -> float:
    return round(float(x) + 1e-9, 2)


def generate_catalogue(seed: int) -> list[dict]:
    """≥ 120 products in 8 categories: name, brand, price, rating, reviews, stock, sizes, colours."""
    rng = np.random.default_rng(seed)
    products, names = [], set()
    for cat, (nouns, brands, (lo, hi), sizes, colours) in CATEGORIES.items():
        for _ in range(18):
            while True:
                brand = str(rng.choice(brands))
                name = f"{brand} {rng.choice(ADJECTIVES)} {rng.choice(nouns)}"
                if name not in names:
                    names.add(name)
                    break
            price = money(int(rng.integers(lo, hi)) + float(rng.choice([0.99, 0.49, 0.0, 0.95])))
            k = int(rng.integers(2, len(colours) + 1))
            cols = [str(c) for c in sorted(rng.choice(colours, size=k, replace=False), key=colours.index)]
            szs = list(sizes)
            if sizes and rng.random() < 0.5:
                start = int(rng.integers(0, 2))
                szs = sizes[start:len(sizes) - int(rng.integers(0, 2))]
            stock = 0 if rng.random() < 0.22 else int(rng.integers(1, 40))
            products.append({
                "id": len(products) + 1, "name": name, "brand": brand, "category": cat, "price": price,
                "rating": round(float(rng.integers(25, 51)) / 10, 1), "reviews": int(rng.integers(0, 900)),
                "stock": stock, "sizes": szs, "colours": cols,
                "description": f"The {name} is a {rng.choice(['best-selling', 'new', 'award-winning', 'popular'])} "
                               f"{cat.lower()} pick from {brand}, "
                               f"made for {rng.choice(['everyday use', 'the outdoors', 'the city', 'travel', 'work and play'])}.",
            })
    return products


def product_line(p: dict, size: str = "", colour: str = "", qty: int = 1) -> dict:
    return {"product_id": p["id"], "name": p["name"], "size": size, "colour": colour, "qty": qty, "price": p["price"]}


def past_orders(products: list[dict], rng: np.random.Generator, n: int) -> list[dict]:
    """`n` delivered orders from before today, newest first, numbered upwards from FIRST_ORDER_NUMBER."""
    orders = []
    for i in range(n):
        items = []
        for p in rng.choice(products, size=int(rng.integers(1, 4)), replace=False):
            p = dict(p)
            items.append(product_line(p, str(rng.choice(p["sizes"])) if p["sizes"] else "",
                                      str(rng.choice(p["colours"])), int(rng.integers(1, 3))))
        method = str(rng.choice(["standard", "express", "pickup"]))
        subtotal = money(sum(it["price"] * it["qty"] for it in items))
        shipping = shipping_cost(method, subtotal)
        orders.append({
            "id": i + 1, "number": FIRST_ORDER_NUMBER + i, "date": f"2026-{1 + i // 3:02d}-{3 + 8 * (i % 3):02d}",
            "status": "Delivered", "items": items, "subtotal": subtotal, "discount": 0.0, "coupon": "",
            "shipping_method": method, "shipping": shipping, "total": money(subtotal + shipping),
            "address": {"name": "Sam Carter", "street": f"{int(rng.integers(1, 99))} {rng.choice(_STREETS)}",
                        "city": str(rng.choice(_CITIES)), "postcode": f"{int(rng.integers(10000, 99999))}",
                        "phone": "0207 946 0" + f"{int(rng.integers(100, 999))}", "email": "sam.carter@example.com"},
            "card_last4": f"{int(rng.integers(1000, 9999))}",
        })
    orders.reverse()
    return orders


def shipping_cost(method: str, subtotal: float) -> float:
    if method == "standard" and subtotal >= FREE_STANDARD_OVER:
        return 0.0
    return SHIPPING[method][1]


def validate_checkout(form: dict) -> dict[str, str]:
    """Field -> error message for a checkout form (empty when valid)."""
    errors = {}
    for f, label in (("name", "Full name"), ("street", "Street address"), ("city", "City")):
        if not str(form.get(f, "")).strip():
            errors[f] = f"{label} is required."
    if not re.fullmatch(r"\d{5}", str(form.get("postcode", "")).strip()):
        errors["postcode"] = "Postcode must be 5 digits."
    phone = re.sub(r"[\s-]", "", str(form.get("phone", "")))
    if not re.fullmatch(r"\+?\d{10,15}", phone):
        errors["phone"] = "Phone must have 10 to 15 digits."
    if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}", str(form.get("email", "")).strip()):
        errors["email"] = "Enter a valid email address."
    card = re.sub(r"[\s-]", "", str(form.get("card", "")))
    if not re.fullmatch(r"\d{16}", card):
        errors["card"] = "Card number must be 16 digits."
    m = re.fullmatch(r"(\d{2})\s*/\s*(\d{2})", str(form.get("expiry", "")).strip())
    if not m or not 1 <= int(m.group(1)) <= 12 or (2000 + int(m.group(2)), int(m.group(1))) < (2026, 3):
        errors["expiry"] = "Expiry must be a future month as MM/YY."
    if not re.fullmatch(r"\d{3}", str(form.get("cvc", "")).strip()):
        errors["cvc"] = "CVC must be 3 digits."
    if form.get("shipping") not in SHIPPING:
        errors["shipping"] = "Choose a shipping option."
    return errors


class ShopApp:
    """One episode of the shop: catalogue, cart, wishlist, coupon and orders, behind a lock."""

    def __init__(self, seed: int, *, cart: list[dict] = (), wishlist: list[int] = (), n_orders: int = 5):
        self.seed = seed
        self.products = generate_catalogue(seed)
        self.by_id = {p["id"]: p for p in self.products}
        self._lock = threading.Lock()
        self.cart: list[dict] = []
        self._next_line = 1
        for line in cart:
            self._add_line(line["product_id"], line.get("qty", 1), line.get("size", ""), line.get("colour", ""))
        self.wishlist: list[int] = list(wishlist)
        self.coupon = ""
        self.orders = past_orders(self.products, np.random.default_rng(seed + 1), n_orders)

    # -- state for checkers --------------------------------------------------
    def state(self) -> dict:
        with self._lock:
            return copy.deepcopy({"cart": [{k: ln[k] for k in ("line", "product_id", "size", "colour", "qty")}
                                           for ln in self.cart],
                                  "wishlist": list(self.wishlist), "coupon": self.coupon, "orders": self.orders,
                                  "stock": {p["id"]: p["stock"] for p in self.products}})

    # -- catalogue -----------------------------------------------------------
    def search(self, q: str = "", category: str = "", brand: str = "", lo: float | None = None,
               hi: float | None = None, instock: bool = False, sort: str = "featured") -> list[dict]:
        words = q.casefold().split()
        hits = [p for p in self.products
                if all(w in f"{p['name']} {p['brand']} {p['category']}".casefold() for w in words)
                and (not category or p["category"] == category) and (not brand or p["brand"] == brand)
                and (lo is None or p["price"] >= lo) and (hi is None or p["price"] <= hi)
                and (not instock or p["stock"] > 0)]
        keys = {"price-asc": lambda p: (p["price"], p["id"]), "price-desc": lambda p: (-p["price"], p["id"]),
                "rating": lambda p: (-p["rating"], -p["reviews"], p["id"]), "name": lambda p: (p["name"], p["id"]),
                "featured": lambda p: (-(p["reviews"] * p["rating"]) // 500, p["id"])}
        if sort not in keys:
            raise ValueError(f"sort must be one of {sorted(keys)}, got {sort!r}")
        return sorted(hits, key=keys[sort])

    # -- cart ----------------------------------------------------------------
    def _add_line(self, pid: int, qty: int, size: str, colour: str) -> dict:
        for ln in self.cart:
            if (ln["product_id"], ln["size"], ln["colour"]) == (pid, size, colour):
                ln["qty"] += qty
                return ln
        ln = {"line": self._next_line, "product_id": pid, "size": size, "colour": colour, "qty": qty}
        self._next_line += 1
        self.cart.append(ln)
        return ln

    def _totals(self) -> dict:
        lines = []
        for ln in self.cart:
            p = self.by_id[ln["product_id"]]
            lines.append({**ln, "name": p["name"], "brand": p["brand"], "price": p["price"], "stock": p["stock"],
                          "total": money(p["price"] * ln["qty"])})
        subtotal = money(sum(ln["total"] for ln in lines))
        discount, free_ship = 0.0, False
        if self.coupon:
            _, kind, value, minimum = COUPONS[self.coupon]
            if kind == "percent":
                discount = money(subtotal * value / 100)
            elif kind == "amount" and subtotal >= minimum:
                discount = value
            free_ship = kind == "shipping"
        return {"lines": lines, "subtotal": subtotal, "coupon": self.coupon, "discount": discount,
                "free_shipping": free_ship, "count": sum(ln["qty"] for ln in self.cart),
                "shipping": {k: {"label": lab, "cost": 0.0 if free_ship else shipping_cost(k, subtotal)}
                             for k, (lab, _) in SHIPPING.items()}}

    # -- HTTP ------------------------------------------------------------------
    def __call__(self, req: Request) -> Response:
        parts = [p for p in req.path.split("/") if p]
        if not parts:
            return Response(404, {"error": "no shop endpoint given; see tasks/webapps/shop.py"})
        try:
            body = req.json() if req.body else {}
        except ValueError:
            return Response(400, {"error": "request body is not JSON"})
        with self._lock:
            return self._dispatch(req, parts, body or {})

    def _dispatch(self, req: Request, parts: list[str], body: dict) -> Response:
        head, rest, m = parts[0], parts[1:], req.method
        if head == "meta" and m == "GET":
            return Response(200, {"categories": list(CATEGORIES),
                                  "brands": {c: sorted({p["brand"] for p in self.products if p["category"] == c})
                                             for c in CATEGORIES},
                                  "all_brands": sorted({p["brand"] for p in self.products}),
                                  "shipping": {k: {"label": v[0], "cost": v[1]} for k, v in SHIPPING.items()},
                                  "free_standard_over": FREE_STANDARD_OVER,
                                  "cart_count": sum(ln["qty"] for ln in self.cart), "wishlist_count": len(self.wishlist)})
        if head == "products" and m == "GET":
            if rest:
                p = self.by_id.get(int(rest[0])) if rest[0].isdigit() else None
                if p is None:
                    return Response(404, {"error": f"no product {rest[0]}"})
                return Response(200, {**p, "wishlisted": p["id"] in self.wishlist})
            return self._products(req)
        if head == "cart":
            return self._cart(m, rest, body)
        if head == "coupon":
            if m == "POST":
                code = str(body.get("code", "")).strip().upper()
                if code not in COUPONS:
                    return Response(400, {"error": f"Coupon code \"{code}\" is not valid."})
                self.coupon = code
            elif m == "DELETE":
                self.coupon = ""
            return Response(200, self._totals())
        if head == "wishlist":
            if m == "POST":
                pid = int(body.get("product_id", 0))
                if pid not in self.by_id:
                    return Response(404, {"error": f"no product {pid}"})
                if pid not in self.wishlist:
                    self.wishlist.append(pid)
            elif m == "DELETE" and rest:
                if int(rest[0]) in self.wishlist:
                    self.wishlist.remove(int(rest[0]))
            return Response(200, [self.by_id[pid] for pid in self.wishlist])
        if head == "checkout" and m == "POST":
            return self._checkout(body)
        if head == "orders" and m == "GET":
            if rest:
                hit = [o for o in self.orders if str(o["id"]) == rest[0]]
                return Response(200, hit[0]) if hit else Response(404, {"error": f"no order {rest[0]}"})
            return Response(200, self.orders)
        return Response(404, {"error": f"no shop endpoint {m} {'/'.join(parts)}"})

    def _products(self, req: Request) -> Response:
        def num(name):
            v = req.arg(name).strip()
            try:
                return float(v) if v else None
            except ValueError:
                return None
        try:
            hits = self.search(req.arg("q"), req.arg("category"), req.arg("brand"), num("min"), num("max"),
                               req.arg("instock") in ("1", "true", "on"), req.arg("sort", "featured") or "featured")
        except ValueError as e:
            return Response(400, {"error": str(e)})
        per = max(1, min(48, int(req.arg("per", str(PER_PAGE)) or PER_PAGE)))
        pages = max(1, -(-len(hits) // per))
        page = max(1, min(pages, int(req.arg("page", "1") or 1)))
        return Response(200, {"items": hits[(page - 1) * per: page * per], "total": len(hits),
                              "page": page, "pages": pages, "per": per})

    def _cart(self, m: str, rest: list[str], body: dict) -> Response:
        if m == "POST":
            p = self.by_id.get(int(body.get("product_id", 0)))
            if p is None:
                return Response(404, {"error": "no such product"})
            qty, size, colour = int(body.get("qty", 1)), str(body.get("size", "")), str(body.get("colour", ""))
            fields = {}
            if p["sizes"] and size not in p["sizes"]:
                fields["size"] = "Please choose a size."
            if colour not in p["colours"]:
                fields["colour"] = "Please choose a colour."
            if p["stock"] <= 0:
                fields["qty"] = "This item is out of stock."
            elif not 1 <= qty <= min(10, p["stock"]):
                fields["qty"] = f"Quantity must be between 1 and {min(10, p['stock'])}."
            if fields:
                return Response(400, {"error": "Could not add to cart.", "fields": fields})
            self._add_line(p["id"], qty, size, colour)
        elif m in ("PUT", "DELETE") and rest:
            hit = [ln for ln in self.cart if str(ln["line"]) == rest[0]]
            if not hit:
                return Response(404, {"error": f"no cart line {rest[0]}"})
            if m == "DELETE":
                self.cart.remove(hit[0])
            else:
                qty = int(body.get("qty", 1))
                stock = self.by_id[hit[0]["product_id"]]["stock"]
                if not 1 <= qty <= min(10, stock):
                    return Response(400, {"error": f"Quantity must be between 1 and {min(10, stock)}."})
                hit[0]["qty"] = qty
        return Response(200, self._totals())

    def _checkout(self, form: dict) -> Response:
        if not self.cart:
            return Response(400, {"error": "Your cart is empty."})
        errors = validate_checkout(form)
        if errors:
            return Response(400, {"error": "Please correct the highlighted fields.", "fields": errors})
        t = self._totals()
        ship = t["shipping"][form["shipping"]]["cost"]
        if form.get("dry_run"):
            return Response(200, {**t, "shipping_cost": ship, "total": money(t["subtotal"] - t["discount"] + ship)})
        order = {
            "id": max([o["id"] for o in self.orders] + [0]) + 1,
            "number": max([o["number"] for o in self.orders] + [FIRST_ORDER_NUMBER - 1]) + 1,
            "date": TODAY, "status": "Processing",
            "items": [product_line(self.by_id[ln["product_id"]], ln["size"], ln["colour"], ln["qty"]) for ln in self.cart],
            "subtotal": t["subtotal"], "discount": t["discount"], "coupon": self.coupon,
            "shipping_method": form["shipping"], "shipping": ship,
            "total": money(t["subtotal"] - t["discount"] + ship),
            "address": {k: str(form.get(k, "")).strip() for k in ("name", "street", "city", "postcode", "phone", "email")},
            "card_last4": re.sub(r"\D", "", str(form["card"]))[-4:],
        }
        for ln in self.cart:
            self.by_id[ln["product_id"]]["stock"] -= ln["qty"]
        self.orders.insert(0, order)
        self.cart, self.coupon = [], ""
        return Response(201, order)


_INSTALLED = Installed("shop", "/shop/api/", "hybridgym.tasks.webapps.shop")


def install(server: AppServer, seed: int, **kwargs) -> ShopApp:
    """A fresh ShopApp answering `/shop/api/` on `server` for this episode."""
    return _INSTALLED.install(server, ShopApp(seed, **kwargs))


def app_of(server: AppServer) -> ShopApp:
    return _INSTALLED.app_of(server)
