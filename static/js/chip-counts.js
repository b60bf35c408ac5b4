// The count sheet's table total, as the dealer types (spaces, dots and commas are separators).
(function () {
  "use strict";
  const form = document.getElementById("chip-count-form");
  if (!form) return;
  const total = document.getElementById("cs-total");
  const fmt = new Intl.NumberFormat(document.documentElement.lang || undefined);
  function sum() {
    let n = 0;
    form.querySelectorAll(".cs-input").forEach((input) => {
      const v = Number((input.value || "").replace(/[\s.,\u00a0\u202f']/g, ""));
      if (Number.isFinite(v)) n += v;
    });
    total.textContent = fmt.format(n);
  }
  form.addEventListener("input", sum);
})();
