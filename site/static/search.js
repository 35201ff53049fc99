// Search for a site built by `evidence`: it turns on the search form in the page's
// header, which stays hidden (and the page whole) without JavaScript.
//
// The index is the one `evidence build` writes under search/<view>/ (see
// src/render/search/mod.rs): script files that call __evidenceSearch(name, data), loaded
// with <script> elements so that search works from file:// as well as from a server. A
// query reads meta.js, then one shard of postings per term, then the page titles of the
// results it shows. Tokens are made as src/render/search/tokens.rs makes them: NFKC and
// lower case, Latin words matched by prefix, CJK text as bigrams, so 観測 finds 観測手段.
// A query written in a script the view's languages do not use, which another view's do,
// gets a link to that view (the form's and the switcher's data-scripts); a page opened
// with ?q=… searches for it at once.
(() => {
  "use strict";
  const form = document.querySelector("form.site-search");
  const script = document.currentScript;
  if (!form || !script) return;
  const input = form.querySelector("input");
  const status = document.getElementById("site-search-status");
  const list = document.getElementById("site-search-results");
  const elsewhere = document.getElementById("site-search-elsewhere");
  if (!input || !status || !list) return;
  const base = new URL("../search/", script.src);
  const indexes = (form.dataset.indexes || "").split(" ").filter(Boolean);
  const viewRoot = form.dataset.viewRoot || "";
  const SHOWN = 10;
  const MAX_CHARS = 32;

  // Index files, loaded once each.
  const files = new Map();
  const waiting = new Map();
  window.__evidenceSearch = (name, data) => {
    const w = waiting.get(name);
    if (w) {
      waiting.delete(name);
      w(data);
    }
  };
  function load(name) {
    if (!files.has(name)) {
      files.set(name, new Promise((resolve, reject) => {
        waiting.set(name, resolve);
        const s = document.createElement("script");
        s.src = new URL(name + ".js", base).href;
        s.onerror = () => reject(new Error(name));
        // Loaded but it did not call back: not an index file.
        s.onload = () => waiting.has(name) && reject(new Error(name));
        document.head.appendChild(s);
      }));
    }
    return files.get(name);
  }

  // Tokens, as tokens.rs makes them.
  const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC]/u;
  const WORD = /[\p{Alphabetic}\p{N}]/u;
  function cls(c) {
    if (c < "\x80") return /[0-9A-Za-z]/.test(c) ? "w" : "";
    if (CJK.test(c)) return "c";
    return WORD.test(c) ? "w" : "";
  }
  // The query's terms: {tok, prefix}. A word matches the words it begins; a run of CJK
  // characters each of its bigrams exactly; one CJK character every token it begins.
  function terms(q) {
    const out = [];
    const chars = Array.from(q.normalize("NFKC")).map((c) => c.toLowerCase()).join("");
    const cs = Array.from(chars);
    let i = 0;
    while (i < cs.length) {
      const k = cls(cs[i]);
      let j = i + 1;
      while (j < cs.length && cls(cs[j]) === k) j++;
      const run = cs.slice(i, j);
      if (k === "w") {
        out.push({ tok: run.slice(0, MAX_CHARS).join(""), prefix: true });
      } else if (k === "c" && run.length === 1) {
        out.push({ tok: run[0], prefix: true });
      } else if (k === "c") {
        for (let b = 0; b + 1 < run.length; b++) out.push({ tok: run[b] + run[b + 1], prefix: false });
      }
      i = j;
    }
    return out;
  }
  function key(tok) {
    const c = Array.from(tok);
    return c.slice(0, cls(c[0]) === "c" ? 1 : 2).join("");
  }
  function fnv1a(s) {
    let h = 0x811c9dc5;
    for (const b of new TextEncoder().encode(s)) h = Math.imul(h ^ b, 0x01000193) >>> 0;
    return h;
  }

  // The pages of index `name` matching every term: Map doc → score.
  async function find(name, ts) {
    const meta = await load(name + "/meta");
    let found = null;
    for (const t of ts) {
      const shard = await load(name + "/t/" + (fnv1a(key(t.tok)) & (meta.shards - 1)));
      const scores = new Map();
      for (const [tok, post] of Object.entries(shard)) {
        if (tok !== t.tok && !(t.prefix && tok.startsWith(t.tok))) continue;
        let doc = 0;
        for (const p of post) {
          doc += p >> 3;
          // One, two more when frequent on the page, eight more in its title, four more in
          // a heading or caption; half for a longer word the term begins.
          const s = (1 + (p & 1 ? 2 : 0) + (p & 2 ? 8 : 0) + (p & 4 ? 4 : 0)) / (tok === t.tok ? 1 : 2);
          scores.set(doc, Math.max(scores.get(doc) || 0, s));
        }
      }
      if (found === null) {
        found = scores;
      } else {
        for (const [doc, s] of found) {
          if (scores.has(doc)) found.set(doc, s + scores.get(doc));
          else found.delete(doc);
        }
      }
      if (found.size === 0) break;
    }
    return { meta, found: found || new Map() };
  }

  // Every index of the view, results merged by page: the interleaved view searches the
  // index of each of its languages, which number the site's pages alike (by page id).
  // Returns the number of pages found and the first SHOWN of them, best first.
  async function search(q) {
    const ts = terms(q);
    if (ts.length === 0) return null;
    const pages = new Map();
    let chunk = 1;
    for (const name of indexes) {
      const { meta, found } = await find(name, ts);
      chunk = meta.chunk;
      for (const [doc, score] of found) {
        const p = pages.get(doc);
        if (p) p.score += score;
        else pages.set(doc, { doc, score, name, size: (meta.sizes || [])[doc] || 0 });
      }
    }
    // Equal scores: the shorter page first, as the one more about the terms; the page
    // order (by id) only between pages of one size.
    const ranked = [...pages.values()]
      .sort((a, b) => b.score - a.score || a.size - b.size || a.doc - b.doc)
      .slice(0, SHOWN);
    const shown = [];
    for (const r of ranked) {
      const row = (await load(r.name + "/d/" + Math.floor(r.doc / chunk)))[r.doc % chunk];
      if (row) shown.push({ path: row[0], title: row[1], excerpt: row[2], name: r.name });
    }
    return { total: pages.size, shown };
  }

  function message(key, n, m) {
    return (form.dataset[key] || "").replace("$n", String(n)).replace("$m", String(m));
  }

  // Scripts as JavaScript's \p{Script_Extensions=…} reads them, from a data-scripts attribute.
  function scriptTest(names) {
    const parts = (names || "").split(" ").filter(Boolean).map((n) => "\\p{Script_Extensions=" + n + "}");
    try {
      return parts.length ? new RegExp("[" + parts.join("") + "]", "u") : null;
    } catch (e) {
      return null;
    }
  }
  const ours = scriptTest(form.dataset.scripts);
  const LETTER = /\p{L}/u;
  // The other view to suggest for query `q`: one whose languages write a letter of `q`
  // that the view's own languages do not; of several, the one that writes the fewest
  // scripts (the view in that language alone, not an interleaved one).
  function otherView(q) {
    if (!ours || !elsewhere) return null;
    const foreign = Array.from(q).filter((c) => LETTER.test(c) && !ours.test(c));
    if (foreign.length === 0) return null;
    let best = null;
    let fewest = Infinity;
    for (const a of document.querySelectorAll("nav.views a[data-scripts]")) {
      const theirs = scriptTest(a.dataset.scripts);
      const count = a.dataset.scripts.split(" ").length;
      if (theirs && foreign.some((c) => theirs.test(c)) && count < fewest) {
        best = a;
        fewest = count;
      }
    }
    return best;
  }
  function suggest(q) {
    if (!elsewhere) return;
    elsewhere.replaceChildren();
    const a = q ? otherView(q) : null;
    elsewhere.hidden = !a;
    if (!a) return;
    const link = document.createElement("a");
    const url = new URL(a.href);
    url.search = "?q=" + encodeURIComponent(q);
    link.href = url.href;
    link.hreflang = a.hreflang;
    const [before, after] = message("msgElsewhere").split("$v");
    const name = document.createElement("span");
    name.append(...Array.from(a.childNodes, (n) => n.cloneNode(true)));
    link.append(before || "", name, after || "");
    elsewhere.append(link);
  }

  function show(results) {
    list.replaceChildren();
    if (results === null) {
      status.textContent = "";
      list.hidden = true;
      return;
    }
    const total = results.total;
    for (const r of results.shown) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = viewRoot + r.path;
      a.textContent = r.title || r.path;
      if (indexes.length > 1) a.lang = r.name;
      li.append(a);
      if (r.excerpt) {
        const p = document.createElement("p");
        p.textContent = r.excerpt;
        if (indexes.length > 1) p.lang = r.name;
        li.append(p);
      }
      list.append(li);
    }
    list.hidden = total === 0;
    status.textContent = total === 0 ? message("msgNone")
      : total > SHOWN ? message("msgSome", total, SHOWN)
      : message(total === 1 ? "msgOne" : "msgOther", total);
  }

  let asked = 0;
  async function run() {
    const n = ++asked;
    const q = input.value.trim();
    try {
      const results = q ? await search(q) : null;
      if (n === asked) {
        show(results);
        suggest(q);
      }
    } catch (e) {
      if (n === asked) {
        list.replaceChildren();
        list.hidden = true;
        status.textContent = message("msgError");
      }
    }
  }
  let timer = 0;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(run, 150);
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && input.value) {
      input.value = "";
      run();
    }
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    clearTimeout(timer);
    run();
  });
  form.hidden = false;
  // A link from another view's suggestion carries the query.
  const asked0 = new URLSearchParams(location.search).get("q");
  if (asked0) {
    input.value = asked0;
    run();
  }
})();
