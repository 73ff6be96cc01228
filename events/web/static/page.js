/* cmdraft pages, the helpers they share: loaded first by each page (`<script src="/static/page.js">`), one global
   `cmdraftPage`.  Plain ES2017.  Text goes in with textContent only. */
var cmdraftPage = (function () {
  "use strict";

  function $(id) {
    return document.getElementById(id);
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function send(method, path, body) {
    var options = { method: method, credentials: "same-origin", headers: { Accept: "application/json" } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    return fetch(path, options);
  }

  // The answer as {status, ok, data}, whatever the status (data is {} when the body is not JSON).
  function api(method, path, body) {
    return send(method, path, body).then(function (response) {
      return response
        .json()
        .catch(function () {
          return {};
        })
        .then(function (data) {
          return { status: response.status, ok: response.ok, data: data };
        });
    });
  }

  function errorText(result) {
    var e = result.data && result.data.error;
    return e && e.message ? e.message : "the server answered " + result.status;
  }

  // The answer's data, or a rejection with the server's message when it refused.
  function request(method, path, body) {
    return send(method, path, body).then(function (answer) {
      return answer.json().then(
        function (data) {
          if (!answer.ok) throw new Error((data.error && data.error.message) || "the server said no");
          return data;
        },
        function () {
          throw new Error("the server's answer could not be read");
        }
      );
    });
  }

  // Whether this browser holds a seat's token (the server sets the mark beside the token's HttpOnly cookie, which
  // script can't read, for as long): a page that never joined asks nothing of a seat, so a fresh phone logs no
  // refusal.  A token refused since (the seat opened elsewhere, a new code) keeps its mark: the page asks once on
  // loading, and says why the seat is no longer its.
  var HOLDS_SEAT = "cmdraft_holds_seat";

  function holdsSeat() {
    return document.cookie.split(";").some(function (part) {
      return part.trim() === HOLDS_SEAT + "=1";
    });
  }

  // A round clock, "mm:ss", never below zero.
  function clockText(seconds) {
    var whole = Math.max(0, Math.ceil(seconds));
    var m = Math.floor(whole / 60);
    var s = whole % 60;
    return (m < 10 ? "0" : "") + m + ":" + (s < 10 ? "0" : "") + s;
  }

  return {
    $: $,
    el: el,
    clear: clear,
    api: api,
    errorText: errorText,
    request: request,
    holdsSeat: holdsSeat,
    clockText: clockText,
  };
})();
