// Northwind Market: helpers shared by the shop pages (API calls, header, formatting).
const Shop = (() => {
  const api = WebApp.client('/shop/api/'), esc = WebApp.esc;
  const money = x => '$' + Number(x).toFixed(2);
  const stars = r => '★'.repeat(Math.round(r)) + '☆'.repeat(5 - Math.round(r));
  const params = () => new URLSearchParams(location.search);
  const COLOURS = ['#2f6f8f', '#8f4a2f', '#4a7f3a', '#6a4a8f', '#8f2f5a', '#2f8f7a', '#7a6a2f', '#3a4a7f'];
  function thumb(p) {
    const i = (p.id * 7) % COLOURS.length;
    const initials = p.name.split(' ').slice(1, 3).map(w => w[0]).join('');
    return `<div class="thumb" style="background:${COLOURS[i]}">${esc(initials)}</div>`;
  }
  async function header(active) {
    const meta = (await api('meta')).data;
    const q = params().get('q') || '';
    const el = document.createElement('header');
    el.className = 'top';
    el.innerHTML = `<a class="logo" href="index.html">Northwind <span>Market</span></a>
      <form id="search-form" action="index.html" role="search">
        <input id="search" name="q" placeholder="Search products, brands, categories" value="${esc(q)}" autocomplete="off">
        <button id="search-btn" type="submit">Search</button></form>
      <nav><a id="nav-wishlist" href="wishlist.html" class="${active === 'wishlist' ? 'active' : ''}">Wishlist<span class="badge" id="wish-count">${meta.wishlist_count}</span></a>
        <a id="nav-orders" href="orders.html" class="${active === 'orders' ? 'active' : ''}">Orders</a>
        <a id="nav-cart" href="cart.html" class="${active === 'cart' ? 'active' : ''}">Cart<span class="badge" id="cart-count">${meta.cart_count}</span></a></nav>`;
    document.body.prepend(el);
    return meta;
  }
  async function refreshCounts() {
    const meta = (await api('meta')).data;
    document.getElementById('cart-count').textContent = meta.cart_count;
    document.getElementById('wish-count').textContent = meta.wishlist_count;
  }
  return { api, esc, money, stars, params, thumb, header, refreshCounts };
})();
