// Superstep display runtime: turns static pictures into live ones.
// Embedded in every live display; defining it twice is harmless.
(function () {
  var ss = (window.superstep = window.superstep || {});
  if (ss.version === 1) return;
  ss.version = 1;

  function decodeDataURL(src) {
    var b64 = src.slice(src.indexOf(",") + 1);
    var bin = atob(b64);
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new TextDecoder().decode(bytes);
  }

  function tooltip(root) {
    var tip = document.createElement("div");
    tip.className = "superstep-tip";
    tip.style.cssText =
      "position:fixed;pointer-events:none;background:rgba(20,20,20,.85);color:#fff;" +
      "font:12px sans-serif;padding:3px 6px;border-radius:3px;display:none;z-index:1000;white-space:pre";
    root.appendChild(tip);
    root.addEventListener("mousemove", function (ev) {
      var el = ev.target.closest ? ev.target.closest("[data-tip]") : null;
      if (!el || !root.contains(el)) {
        tip.style.display = "none";
        return;
      }
      tip.textContent = el.getAttribute("data-tip");
      tip.style.left = ev.clientX + 12 + "px";
      tip.style.top = ev.clientY + 12 + "px";
      tip.style.display = "block";
    });
    root.addEventListener("mouseleave", function () {
      tip.style.display = "none";
    });
    return tip;
  }

  ss.views = ss.views || {};
  // The generic view: inline the SVG so hover and styling work.
  ss.views.svg = function (root, img) {
    var holder = document.createElement("div");
    holder.innerHTML = decodeDataURL(img.getAttribute("src"));
    var svg = holder.querySelector("svg");
    if (!svg) return false;
    svg.style.maxWidth = "100%";
    svg.style.height = "auto";
    img.replaceWith(svg);
    tooltip(root);
    return true;
  };

  ss.live = function (id, kind, spec) {
    var root = document.getElementById(id);
    if (!root || root.getAttribute("data-live") === "1") return;
    var img = root.querySelector("img");
    var view = ss.views[kind] || ss.views.svg;
    try {
      if (img && view(root, img, spec)) root.setAttribute("data-live", "1");
    } catch (e) {
      // The static picture stays: it is correct on its own.
      root.setAttribute("data-live-error", String(e));
    }
  };
})();
