// Retry Lab's service worker (served as /app-worker.js; go-app fills in the
// version and the list of shell resources).
//
// It caches the app shell so the page opens offline after the first visit,
// and it deliberately stays out of every other request. go-app's default
// worker answers every fetch() itself, which broke the playground: an aborted
// fetch to the mock endpoint never reached the server as a cancellation, and
// every request picked up worker latency. Here a request to /mock (on any
// origin) or to another origin is never intercepted, so the browser sends it
// directly and aborts reach the wire.
const cacheName = "retrylab-" + "{{.Version}}";
const resourcesToCache = {{.ResourcesToCache}};

// The page's requests that are never the shell's (its stream of the mock's
// arrivals, the outage and burst buttons' POSTs, the room's QR code) are routed past this
// worker before it runs (the static routing API, Chromium 123 and later):
// without the routes the browser hands each to this worker's fetch event
// first, only to have it declined, which delays its start. The fetch
// handler below declines the same requests where addRoutes is missing.
// The routes do not reach a dedicated worker's requests (Chromium 156):
// a run's requests come from fetch workers this worker does not control
// (app/browser: workerPool).
function staticRoutes() {
  const here = new URL(self.location.href);
  const path = (p) => ({ urlPattern: new URLPattern({ pathname: p }) });
  return [
    {
      condition: { or: [path("/mock"), path("/mock/*"), path("/join"), path("/qr.svg")] },
      source: "network",
    },
    {
      // another origin: the mock's *.localhost worker origins, a custom target
      condition: {
        not: { urlPattern: new URLPattern({ protocol: here.protocol.slice(0, -1), hostname: here.hostname, port: here.port }) },
      },
      source: "network",
    },
  ];
}

self.addEventListener("install", (event) => {
  if (event.addRoutes) {
    // A browser that does not know a condition refuses the routes: the
    // fetch handler then declines these requests itself.
    try {
      event.waitUntil(event.addRoutes(staticRoutes()).catch(() => {}));
    } catch (e) {
      // as above
    }
  }
  event.waitUntil(
    (async () => {
      const cache = await caches.open(cacheName);
      // "no-cache" revalidates against the HTTP cache: when the page is
      // downloading app.wasm at the same moment, Chromium's cache lock makes
      // this request wait and then answer 304 instead of downloading the
      // wasm a second time, and an update is never served stale.
      await cache.addAll(
        resourcesToCache.map((url) => new Request(url, { cache: "no-cache" }))
      );
      await self.skipWaiting();
    })()
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const keys = await caches.keys();
      await Promise.all(
        keys.filter((k) => k !== cacheName).map((k) => caches.delete(k))
      );
      await self.clients.claim();
    })()
  );
});

function isShellRequest(request) {
  if (request.method !== "GET") {
    return false;
  }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return false;
  }
  // The mock, and what the server says about the network (GET /join) and
  // draws for it (the room link's QR code), are never the shell's.
  return !(url.pathname === "/mock" || url.pathname.startsWith("/mock/") || url.pathname === "/join" || url.pathname === "/qr.svg");
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (!isShellRequest(request)) {
    return; // not ours: the browser performs it untouched
  }
  event.respondWith(
    request.mode === "navigate" ? navigate(request) : (async () => (await caches.match(request)) || fetch(request))()
  );
});

// navigate answers a navigation from the network, and from the cached page
// shell when the server cannot be reached (a shared link carries the
// whole configuration in its query string: any opens offline), or when
// something in between answers for it with a server error (a proxy's 502
// while Retry Lab is down). A page answered without the server's X-Retry-Lab header
// (a 2xx from this origin, not a redirect, which a navigation sees as an
// opaque answer with no headers) means another program now serves this
// origin: the worker unregisters and drops its cache, so that it serves
// that program none of Retry Lab's files. Answered from the cache first,
// the origin kept Retry Lab's page at / after Retry Lab stopped, for every
// program served there later (localhost:8080 above all), the worker's
// update failing with a 404.
async function navigate(request) {
  let response;
  try {
    response = await fetch(request);
  } catch (e) {
    const cached = await shell(request);
    if (cached) {
      return cached;
    }
    throw e;
  }
  if (response.type === "basic" && !response.headers.has("X-Retry-Lab")) {
    if (response.status >= 500) {
      return (await shell(request)) || response;
    }
    if (response.status >= 200 && response.status < 300) {
      await self.registration.unregister();
      await caches.delete(cacheName);
    }
  }
  return response;
}

// shell is the cached page for a navigation, whatever its query; none for
// a path the shell is not at (the server answers those with a 404).
async function shell(request) {
  return caches.match(request, { ignoreSearch: true });
}
