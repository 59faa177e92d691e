"""Backend of the Shop web app (assets/web/shop/): a seeded catalogue, cart, wishlist, coupons, checkout and orders.

`ShopApp` answers `/shop/api/...`: a task installs it with
`sb.server.install(ShopApp.prefix, ShopApp)` and loads an episode with `.load(seed, cart=...,
wishlist=...)`; `state()` is the snapshot checkers read. The `sample_*` functions draw task
parameters (a shopper's address and card, product options, a starting cart).

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
import functools
import re

import numpy as np

from hybridgym.sandbox.webserver import ApiError, JsonBackend, Response, endpoint

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
#: product-name adjectives; the training catalogues take the even-indexed ones, the test catalogues the
#: odd-indexed ones (`_half`), so no product name of a test catalogue is one of a training catalogue
ADJECTIVES = ["Classic", "Pro", "Air", "Ultra", "Eco", "Prime", "Nova", "Summit", "Vista", "Core", "Edge", "Flex",
              "Urban", "Pulse", "Zen", "Atlas", "Orbit", "Terra", "Swift", "Echo"]
#: the cents of prices, per split: a test catalogue's prices are never a training one's
PRICE_CENTS = {"train": (0.99, 0.49, 0.0, 0.79), "test": (0.95, 0.45, 0.25, 0.65)}
SPLITS = ("train", "test")
SHIPPING = {"standard": ("Standard (3-5 days)", 4.99), "express": ("Express (1-2 days)", 12.99),
            "nextday": ("Next day", 19.99), "pickup": ("Pick up in store", 0.0)}
FREE_STANDARD_OVER = 75.0
COUPONS = {"SAVE10": ("10% off your order", "percent", 10.0, 0.0),
           "WELCOME5": ("5.00 off orders over 40.00", "amount", 5.0, 40.0),
           "FREESHIP": ("Free shipping", "shipping", 0.0, 0.0)}
TODAY = "2026-03-14"
PER_PAGE = 12
FIRST_ORDER_NUMBER = 10231
_STREETS = ["Elm Street", "Harbour Road", "Mill Lane", "Station Avenue", "Queen's Walk", "Orchard Close",
            "Ash Grove", "Park Terrace", "Bridge Street", "Castle Hill", "Willow Drive", "Market Place"]
#: the cities past orders went to (training catalogues the even-indexed, test ones the odd-indexed)
_CITIES = ["Bristol", "Leeds", "Norwich", "York", "Bath", "Exeter", "Durham", "Chester", "Lincoln", "Oxford",
           "Cambridge", "Brighton", "Carlisle", "Truro", "Salisbury", "Hereford", "Worcester", "Lancaster",
           "Inverness", "Aberdeen", "Dundee", "Perth", "Swansea", "Cardiff", "Newport", "Belfast", "Derry",
           "Galway", "Plymouth", "Canterbury"]


def _half(items, split: str) -> list:
    """The half of a word list a split draws from: "train" the even-indexed items, "test" the odd-indexed ones."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    return list(items[0::2] if split == "train" else items[1::2])


def money(x: float) -> float:
    return round(float(x) + 1e-9, 2)


def generate_catalogue(seed: int, split: str = "train") -> list[dict]:
    """≥ 120 products in 8 categories: name, brand, price, rating, reviews, stock, sizes, colours.

    `split` ("train" or "test") picks the adjectives of the names and the cents of the prices
    from that split's own half, so the two splits' catalogues share no product name or price."""
    return copy.deepcopy(_catalogue(seed, split))


@functools.lru_cache(maxsize=64)
def _catalogue(seed: int, split: str) -> tuple:
    adjectives, cents = _half(ADJECTIVES, split), list(PRICE_CENTS[split])
    rng = np.random.default_rng(seed)
    products, names = [], set()
    for cat, (nouns, brands, (lo, hi), sizes, colours) in CATEGORIES.items():
        for _ in range(18):
            while True:
                brand = str(rng.choice(brands))
                name = f"{brand} {rng.choice(adjectives)} {rng.choice(nouns)}"
                if name not in names:
                    names.add(name)
                    break
            price = money(int(rng.integers(lo, hi)) + float(rng.choice(cents)))
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
    return tuple(products)


def product_line(p: dict, size: str = "", colour: str = "", qty: int = 1) -> dict:
    return {"product_id": p["id"], "name": p["name"], "size": size, "colour": colour, "qty": qty, "price": p["price"]}


def past_orders(products: list[dict], rng: np.random.Generator, n: int, split: str = "train") -> list[dict]:
    """`n` delivered orders from before today, newest first, numbered upwards from FIRST_ORDER_NUMBER
    (shipped to streets and cities of the split's own half)."""
    streets, cities = _half(_STREETS, split), _half(_CITIES, split)
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
            "address": {"name": "Sam Carter", "street": f"{int(rng.integers(1, 99))} {rng.choice(streets)}",
                        "city": str(rng.choice(cities)), "postcode": f"{int(rng.integers(10000, 99999))}",
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


class ShopApp(JsonBackend):
    """One episode of the shop: catalogue, cart, wishlist, coupon and orders."""

    name = "shop"
    prefix = "/shop/api/"

    def clear(self) -> None:
        self.seed = None
        self.products: list[dict] = []
        self.by_id: dict[int, dict] = {}
        self.cart: list[dict] = []
        self._next_line = 1
        self.wishlist: list[int] = []
        self.coupon = ""
        self.orders: list[dict] = []

    def populate(self, seed: int, *, cart: list[dict] = (), wishlist: list[int] = (), n_orders: int = 5,
                 split: str = "train", stock: dict | None = None) -> None:
        """The catalogue of `seed` (and `split`) and its `n_orders` past orders; the cart and wishlist as
        given; `stock` ({product id: units}) overrides the catalogue's stock of those products."""
        self.seed = seed
        self.products = generate_catalogue(seed, split)
        for pid, units in (stock or {}).items():
            self.products[int(pid) - 1]["stock"] = int(units)
        self.by_id = {p["id"]: p for p in self.products}
        for line in cart:
            self._add_line(line["product_id"], line.get("qty", 1), line.get("size", ""), line.get("colour", ""))
        self.wishlist = list(wishlist)
        self.orders = past_orders(self.products, np.random.default_rng(seed + 1), n_orders, split)

    # -- state for checkers --------------------------------------------------
    def state(self) -> dict:
        with self.lock:
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

    def _line(self, line: str) -> dict:
        hit = [ln for ln in self.cart if str(ln["line"]) == line]
        if not hit:
            raise ApiError(404, f"no cart line {line}")
        return hit[0]

    # -- the API ---------------------------------------------------------------
    @endpoint("GET", "meta")
    def meta(self, req, body):
        return {"categories": list(CATEGORIES),
                "brands": {c: sorted({p["brand"] for p in self.products if p["category"] == c}) for c in CATEGORIES},
                "all_brands": sorted({p["brand"] for p in self.products}),
                "shipping": {k: {"label": v[0], "cost": v[1]} for k, v in SHIPPING.items()},
                "free_standard_over": FREE_STANDARD_OVER,
                "cart_count": sum(ln["qty"] for ln in self.cart), "wishlist_count": len(self.wishlist)}

    @endpoint("GET", "products")
    def products_page(self, req, body):
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
            raise ApiError(400, str(e)) from None
        per = max(1, min(48, int(req.arg("per", str(PER_PAGE)) or PER_PAGE)))
        pages = max(1, -(-len(hits) // per))
        page = max(1, min(pages, int(req.arg("page", "1") or 1)))
        return {"items": hits[(page - 1) * per: page * per], "total": len(hits), "page": page, "pages": pages,
                "per": per}

    @endpoint("GET", "products/{pid}")
    def product(self, req, body, pid):
        p = self.by_id.get(int(pid)) if pid.isdigit() else None
        if p is None:
            raise ApiError(404, f"no product {pid}")
        return {**p, "wishlisted": p["id"] in self.wishlist}

    @endpoint("GET", "cart")
    def cart_totals(self, req, body):
        return self._totals()

    @endpoint("POST", "cart")
    def add_to_cart(self, req, body):
        p = self.by_id.get(int(body.get("product_id", 0)))
        if p is None:
            raise ApiError(404, "no such product")
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
            raise ApiError(400, "Could not add to cart.", fields=fields)
        self._add_line(p["id"], qty, size, colour)
        return self._totals()

    @endpoint("PUT", "cart/{line}")
    def set_quantity(self, req, body, line):
        ln = self._line(line)
        qty = int(body.get("qty", 1))
        stock = self.by_id[ln["product_id"]]["stock"]
        if not 1 <= qty <= min(10, stock):
            raise ApiError(400, f"Quantity must be between 1 and {min(10, stock)}.")
        ln["qty"] = qty
        return self._totals()

    @endpoint("DELETE", "cart/{line}")
    def remove_line(self, req, body, line):
        self.cart.remove(self._line(line))
        return self._totals()

    @endpoint("POST", "coupon")
    def apply_coupon(self, req, body):
        code = str(body.get("code", "")).strip().upper()
        if code not in COUPONS:
            raise ApiError(400, f"Coupon code \"{code}\" is not valid.")
        self.coupon = code
        return self._totals()

    @endpoint("DELETE", "coupon")
    def remove_coupon(self, req, body):
        self.coupon = ""
        return self._totals()

    def _wishlist(self) -> list[dict]:
        return [self.by_id[pid] for pid in self.wishlist]

    @endpoint("GET", "wishlist")
    def wishlist_items(self, req, body):
        return self._wishlist()

    @endpoint("POST", "wishlist")
    def wish(self, req, body):
        pid = int(body.get("product_id", 0))
        if pid not in self.by_id:
            raise ApiError(404, f"no product {pid}")
        if pid not in self.wishlist:
            self.wishlist.append(pid)
        return self._wishlist()

    @endpoint("DELETE", "wishlist/{pid}")
    def unwish(self, req, body, pid):
        if int(pid) in self.wishlist:
            self.wishlist.remove(int(pid))
        return self._wishlist()

    @endpoint("GET", "orders")
    def order_list(self, req, body):
        return self.orders

    @endpoint("GET", "orders/{oid}")
    def order(self, req, body, oid):
        hit = [o for o in self.orders if str(o["id"]) == oid]
        if not hit:
            raise ApiError(404, f"no order {oid}")
        return hit[0]

    @endpoint("POST", "checkout")
    def checkout(self, req, form):
        if not self.cart:
            raise ApiError(400, "Your cart is empty.")
        errors = validate_checkout(form)
        if errors:
            raise ApiError(400, "Please correct the highlighted fields.", fields=errors)
        t = self._totals()
        ship = t["shipping"][form["shipping"]]["cost"]
        if form.get("dry_run"):
            return {**t, "shipping_cost": ship, "total": money(t["subtotal"] - t["discount"] + ship)}
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
            # what the payment was made with, as the checkers compare it (the page shows the last 4 digits)
            "payment": {"card": re.sub(r"[\s-]", "", str(form["card"])),
                        "expiry": re.sub(r"\s", "", str(form["expiry"])), "cvc": str(form["cvc"]).strip()},
        }
        for ln in self.cart:
            self.by_id[ln["product_id"]]["stock"] -= ln["qty"]
        self.orders.insert(0, order)
        self.cart, self.coupon = [], ""
        return Response(201, order)


# -- task parameters: a shopper and what they buy -------------------------------------------------

#: shoppers, streets and cities of checkout tasks (a split draws from its own half, `_half`)
SHOPPERS = ["Alex Morgan", "Priya Nair", "Jonas Weber", "Maria Rossi", "Kenji Sato", "Fatima Zahra", "Liam O'Brien",
            "Chloe Dubois", "Mateo García", "Aisha Bello", "Oskar Lind", "Hannah Cole", "Ravi Menon", "Elena Petrova",
            "Tom Becker", "Grace Okafor", "Lucas Moreau", "Nina Kowalski", "David Chen", "Sofia Alves"]
SHOPPER_STREETS = ["14 Rosewood Avenue", "221 Canal Street", "7 Birch Lane", "58 Harbour View", "3 Old Mill Road",
                   "90 Kingfisher Way", "12 Chapel Row", "41 Meadow Close", "5 Linden Court", "63 Foundry Lane",
                   "18 Beacon Street", "27 Heron Walk"]
SHOPPER_CITIES = ["Springfield", "Riverton", "Lakeside", "Fairview", "Ashford", "Millbrook", "Oakridge", "Kingsport",
                  "Brookfield", "Westmere", "Elmstead", "Harrowgate"]


def product_name(seed: int, pid: int, split: str = "train") -> str:
    return _catalogue(seed, split)[pid - 1]["name"]


def sample_category(rng: np.random.Generator, products: list[dict]) -> tuple[str, list[dict]]:
    """A category, and its products."""
    cat = str(rng.choice(list(CATEGORIES)))
    return cat, [p for p in products if p["category"] == cat]


def sample_brand(rng: np.random.Generator, products: list[dict]) -> tuple[str, list[dict]]:
    """A brand of `products`, and its products among them."""
    brand = str(rng.choice(sorted({p["brand"] for p in products})))
    return brand, [p for p in products if p["brand"] == brand]


def sample_address(rng: np.random.Generator) -> dict:
    """A shipping address with phone and email, as the checkout form takes it (names, streets and
    cities from the half of `rng`'s split)."""
    split = getattr(rng, "split", "train")
    name = str(rng.choice(_half(SHOPPERS, split)))
    return {"name": name, "street": str(rng.choice(_half(SHOPPER_STREETS, split))),
            "city": str(rng.choice(_half(SHOPPER_CITIES, split))),
            "postcode": f"{int(rng.integers(10000, 99999))}",
            "phone": f"0{int(rng.integers(100, 999))} {int(rng.integers(100, 999))} {int(rng.integers(1000, 9999))}",
            "email": name.split()[0].lower().replace("'", "") + f"{int(rng.integers(10, 99))}@example.com"}


def sample_card(rng: np.random.Generator) -> dict:
    """A valid-looking card number, expiry and CVC."""
    digits = "4" + "".join(str(int(d)) for d in rng.integers(0, 10, size=15))
    return {"card": " ".join(digits[i:i + 4] for i in range(0, 16, 4)),
            "expiry": f"{int(rng.integers(1, 13)):02d}/{int(rng.integers(27, 31))}", "cvc": f"{int(rng.integers(100, 999))}"}


def sample_options(rng: np.random.Generator, p: dict) -> dict:
    """A size (when the product has sizes) and a colour of product `p`."""
    return {"size": str(rng.choice(p["sizes"])) if p["sizes"] else "", "colour": str(rng.choice(p["colours"]))}


def sample_cart(rng: np.random.Generator, products: list[dict], n: int, exclude=()) -> list[dict]:
    """`n` cart lines of different products with 3 or more in stock (1-2 of each, with options)."""
    pool = [p for p in products if p["stock"] >= 3 and p["id"] not in exclude]
    picks = rng.choice(len(pool), size=n, replace=False)
    return [{"product_id": pool[i]["id"], **sample_options(rng, pool[i]), "qty": int(rng.integers(1, 3))} for i in picks]


def describe(line: dict, name: str) -> str:
    """A cart line in words: "2 × Stridex Pro Runner (size 42, Blue)"."""
    opts = [f"size {line['size']}" if line.get("size") else "", line.get("colour", "")]
    return f"{line['qty']} × {name}" + (f" ({', '.join(o for o in opts if o)})" if any(opts) else "")
