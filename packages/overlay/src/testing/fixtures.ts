/** Snapshot-like pages for the overlay tests: static HTML, as the capture pipeline leaves it. */

export const PRICING_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pricing</title>
<style>
  body { margin: 0; font: 16px/1.5 sans-serif; }
  header { height: 120px; padding: 16px; background: #eee; }
  .cols { display: flex; gap: 24px; padding: 24px; }
  .cols > section { flex: 1; }
  .card { padding: 16px; border: 1px solid #ccc; }
  #scroller { height: 150px; overflow: auto; margin: 24px; border: 1px solid #ccc; }
  #scroller .inner { height: 700px; padding-top: 40px; box-sizing: border-box; }
  .spacer { height: 1500px; }
  div { color: red; }
  @media (max-width: 600px) {
    .cols { display: block; }
    header { height: 260px; }
  }
  /* The page's own class names may be ours too. */
  .pin, .highlight { display: inline-block; width: 100px; height: 10px; background: rgb(0, 128, 0); }
</style></head>
<body>
  <header><h1 id="title">Pricing</h1></header>
  <div class="cols">
    <section><div class="card" id="card-a"><h2>Basic</h2><p id="basic-text">For individuals and small sites.</p>
      <a id="cta" href="/elsewhere">Choose Basic</a></div></section>
    <section><div class="card" id="card-b"><h2>Team</h2><p>For teams.</p>
      <button id="counter" type="button">Count</button></div></section>
  </div>
  <div id="scroller"><div class="inner"><p id="deep">Inside a scroller</p></div></div>
  <span class="pin" id="page-pin"></span>
  <div class="spacer"></div>
  <footer id="footer">Footer</footer>
</body></html>`;

/** CSS that would wreck any UI that is not encapsulated. */
export const HOSTILE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hostile</title>
<style>
  body *, redline-overlay, body + * {
    color: red !important; font: italic 40px/3 serif !important; box-sizing: content-box !important;
    margin: 13px !important; padding: 9px !important; border: 5px dashed blue !important;
    background: lime !important; min-width: 50px !important; min-height: 50px !important;
    opacity: 0.5 !important; transform: rotate(3deg) !important; z-index: 0 !important;
    transition: all 5s !important; filter: blur(2px) !important; clip-path: inset(50%) !important;
  }
  redline-overlay, div, button, span {
    display: none !important; visibility: hidden !important; position: static !important;
    width: 1px !important; height: 1px !important; overflow: hidden !important; pointer-events: none !important;
  }
  *::before, *::after { content: "X" !important; display: block !important; font-size: 90px !important; }
  div { color: red; }
  p { clip-path: none !important; filter: none !important; transform: none !important; }
</style></head>
<body>
  <p id="target">A paragraph to hover.</p>
  <div>hidden</div>
</body></html>`;

/** Inspect mode: text to edit, an element with an inline style to restore exactly, a picture, boxes to measure. */
export const INSPECT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Inspect</title>
<style>
  body { margin: 0; padding: 24px; font: 16px/1.5 sans-serif; }
  #box { width: 200px; height: 100px; background: #ddd; }
  #other { width: 100px; height: 50px; margin: 30px 0 0 300px; background: #bbb; }
  #copy { font-size: 18px; padding: 2px 3px 4px 5px; border: 1px solid rgb(1, 2, 3); }
  .spacer { height: 1500px; }
</style></head>
<body>
  <div id="box">Box</div>
  <div id="other">Other</div>
  <p id="copy" style="color:  blue ;margin-top:4px">Hello <em>brave</em>
    world</p>
  <p id="plain">Plain text here</p>
  <picture id="pic"><source srcset="/img/a.webp" type="image/webp"><img id="photo" src="/img/a.png"
    srcset="/img/a.png 1x, /img/a2.png 2x" alt="A" width="100" height="60"></picture>
  <details id="more"><summary id="summary">More</summary><p>Hidden</p></details>
  <div class="spacer"></div>
</body></html>`;
