/** The reporter's styles, inside the shadow root (the page's CSS never reaches them, nor ours the page). */
export const REPORTER_CSS = `
.pick-layer{position:fixed;inset:0;z-index:2147483646;cursor:crosshair;background:rgba(0,0,0,.04)}
.pick-box{position:fixed;display:none;border:2px solid #e5383b;background:rgba(229,56,59,.12);pointer-events:none;box-sizing:border-box}
.pick-hint{position:fixed;top:12px;left:50%;transform:translateX(-50%);padding:8px 14px;border-radius:8px;background:#1f2328;color:#fff;font:500 13px/1.3 system-ui,-apple-system,"Segoe UI",sans-serif}
.backdrop{position:fixed;inset:0;z-index:2147483646;background:rgba(15,18,22,.45);display:flex;align-items:flex-start;justify-content:center;overflow:auto;padding:24px 12px}
.dialog{width:min(720px,100%);background:#fff;color:#1f2328;border-radius:10px;box-shadow:0 12px 40px rgba(0,0,0,.3);font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;display:flex;flex-direction:column}
.dialog header{display:flex;align-items:center;justify-content:space-between;padding:14px 16px;border-bottom:1px solid #e6e8eb}
.dialog h2{margin:0;font-size:16px;font-weight:600}
.body{padding:16px;display:flex;flex-direction:column;gap:12px}
.tools{display:flex;gap:6px;flex-wrap:wrap;align-items:center}
button{font:inherit;cursor:pointer;border-radius:6px;border:1px solid #d0d4d9;background:#fff;color:#1f2328;padding:6px 12px}
button[aria-pressed=true]{background:#1f2328;color:#fff;border-color:#1f2328}
button.primary{background:#e5383b;border-color:#e5383b;color:#fff;font-weight:600}
button.primary:disabled{opacity:.5;cursor:default}
button.link{border:0;padding:0;background:none;color:#1d4ed8;text-decoration:underline}
button:focus-visible,input:focus-visible,textarea:focus-visible{outline:2px solid #1d4ed8;outline-offset:1px}
.shot{max-width:100%;border:1px solid #e6e8eb;border-radius:6px;touch-action:none;cursor:crosshair;display:block}
label{display:flex;flex-direction:column;gap:4px;font-weight:500}
label.check{flex-direction:row;align-items:center;gap:8px;font-weight:400}
input[type=text],input[type=email],textarea{font:inherit;padding:8px;border:1px solid #d0d4d9;border-radius:6px}
textarea{min-height:80px;resize:vertical}
.row{display:flex;gap:12px}.row>*{flex:1}
footer{display:flex;justify-content:flex-end;gap:8px;padding:12px 16px;border-top:1px solid #e6e8eb}
.muted{color:#5b636d;font-size:13px}
.error{color:#b42318;font-size:13px}
dl{margin:0;display:grid;grid-template-columns:max-content 1fr;gap:4px 12px}dt{color:#5b636d}dd{margin:0;word-break:break-all}
.list{margin:0;padding:0;list-style:none;max-height:160px;overflow:auto;border:1px solid #e6e8eb;border-radius:6px;font:12px/1.4 ui-monospace,monospace}
.list li{padding:4px 8px;border-bottom:1px solid #f0f1f3;white-space:pre-wrap;word-break:break-all}
h3{margin:4px 0;font-size:13px;font-weight:600}
.recording{display:flex;flex-direction:column;align-items:flex-start;gap:6px}
.clip{max-width:100%;max-height:240px;border:1px solid #e6e8eb;border-radius:6px;background:#000}
progress{width:100%}
`;
