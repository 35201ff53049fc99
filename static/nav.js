// The page list of a site built by `evidence`: on a narrow screen it is one row that
// scrolls sideways (static/style.css), and the current page's link may lie past its
// right edge. This scrolls that row, and only it, so that the link is in view.
(() => {
  "use strict";
  const row = document.querySelector(".site-nav ul");
  const current = row && row.querySelector('[aria-current="page"]');
  if (!row || !current || row.scrollWidth <= row.clientWidth) return;
  const box = row.getBoundingClientRect();
  const item = current.getBoundingClientRect();
  if (item.left >= box.left && item.right <= box.right) return;
  // Centred, so that the links on both sides show that the row goes on.
  row.scrollLeft += item.left - box.left - (box.width - item.width) / 2;
})();
