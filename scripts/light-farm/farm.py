#!/usr/bin/env python3
"""A light farm of slow hosts, one loopback address each, written apart from loomcrawl's own (Python's asyncio,
the standard library alone): a second opinion on the cold crawls' figures.

The bench's farm (mock-sites, WireMock on Jetty) spends about 0.36 CPU-ms a request; on two cores a crawl that
needs the CPU shares it with the farm, and the farm's cost narrows every crawler's gap. This one spends about
0.14 ms, and counts what a politeness probe counts: the most requests each host had in flight at once, pages
served twice, requests for a URL inside its 429's Retry-After ("RA URL") and robots.txt violations.

Each host serves a tree: / is page 0, /page/N links /page/10N+1 to /page/10N+10 (so depth 2 reaches a hundred),
the next page, /, a page robots.txt disallows (/private/N) and a page of another host. With --faults, 5% of the
pages answer 500 the first time, 2% 429 with Retry-After: 1 the first time, every page links a redirect
(/go/N, 301 to /page/N) and every tenth a calendar trap (/calendar/N links /calendar/N+1). Answers take
--latency ms. Control on 127.0.0.1:CONTROL: GET /stats (JSON), GET /reset. /stats's firstAt and lastAt are when the
first request came and the last answer went, on the machine's monotonic clock (Python's time.monotonic(), which
another process on the same machine reads alike): a bench sets them beside the crawl's start and exit.

  farm.py --hosts=100 --pages=100 --port=18181 --control=18182 [--faults]
"""
import argparse
import asyncio
import hashlib
import json
import random
import time

CHILDREN = 10
WORDS = ("fiber loom thread weave crawl spider silk virtual carrier host page link text body answer server "
         "latency window retry polite").split()


def address(i):
    """The loopback address of host i: 127.0.10.1 and up, 250 to a third octet."""
    return f"127.0.{10 + i // 250}.{1 + i % 250}"


class Farm:
    def __init__(self, hosts, pages, port, latency_ms, faults):
        self.hosts, self.pages, self.port = hosts, pages, port
        self.latency = latency_ms / 1000
        self.faults = faults
        self.reset()

    def reset(self):
        self.in_flight = {}
        self.most_in_flight = {}
        self.served = {}            # (host, page) -> 200s
        self.failed_once = set()    # (host, page) answered 500 or 429 once
        self.rest_url = {}          # (host, path) -> monotonic end of its Retry-After
        self.requests = self.ra_url = self.robots_violations = 0
        self.first = self.last = None

    def fault(self, host, page):
        digest = hashlib.blake2b(f"{host}/{page}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big") / 2**64

    def page(self, host, n):
        rnd = random.Random(f"{host}/{n}")
        links = [f"/page/{c}" for c in range(n * CHILDREN + 1, n * CHILDREN + CHILDREN + 1) if c < self.pages]
        links += [f"/page/{n + 1}" if n + 1 < self.pages else "/", "/", f"/private/{n}"]
        links.append(f"http://{address(rnd.randrange(self.hosts))}:{self.port}/page/"
                     f"{rnd.randrange(1, min(self.pages, CHILDREN + 1))}" if self.pages > 1 else "/")
        if self.faults:
            links.append(f"/go/{rnd.randrange(1, self.pages)}" if self.pages > 1 else "/")
            if n % 10 == 0:
                links.append("/calendar/1")
        text = "".join("<p>" + " ".join(rnd.choice(WORDS) for _ in range(60)) + "</p>\n" for _ in range(5))
        items = "".join(f'<li><a href="{link}">link {i}</a></li>' for i, link in enumerate(links))
        return (f"<!doctype html><html><head><title>{host} page {n}</title></head><body><h1>{host} page {n}</h1>"
                f"{text}<ul>{items}</ul></body></html>").encode()

    async def answer(self, host, path):
        """(status, headers, body), after the latency."""
        await asyncio.sleep(self.latency)
        html = {"Content-Type": "text/html; charset=utf-8"}
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, b"User-agent: *\nDisallow: /private/\n"
        if path.startswith("/private/"):
            self.robots_violations += 1
            return 200, html, b"<html><body>private</body></html>"
        if self.faults and path.startswith("/go/"):
            return 301, {"Location": "/page/" + path[4:]}, b""
        if self.faults and path.startswith("/calendar/") and path[10:].isdigit():
            return 200, html, f'<html><body><a href="/calendar/{int(path[10:]) + 1}">next</a></body></html>'.encode()
        n = 0 if path == "/" else int(path[6:]) if path.startswith("/page/") and path[6:].isdigit() else -1
        if not 0 <= n < self.pages or path == "/page/0":
            return 404, html, b"<html><body>not found</body></html>"
        if self.faults and (host, n) not in self.failed_once:
            f = self.fault(host, n)
            if f < 0.07:
                self.failed_once.add((host, n))
                if f < 0.05:
                    return 500, html, b"<html><body>oops</body></html>"
                self.rest_url[(host, path)] = time.monotonic() + 1.0
                return 429, {**html, "Retry-After": "1"}, b"<html><body>slow down</body></html>"
        self.served[(host, n)] = self.served.get((host, n), 0) + 1
        return 200, html, self.page(host, n)

    async def serve(self, reader, writer):
        host = writer.get_extra_info("sockname")[0]
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                target = head.split(b"\r\n", 1)[0].decode("latin-1").split(" ")[1]
                path = target.split("?", 1)[0]
                now = time.monotonic()
                self.requests += 1
                self.first = self.first or now
                if self.rest_url.get((host, path), 0) > now:
                    self.ra_url += 1
                self.in_flight[host] = self.in_flight.get(host, 0) + 1
                self.most_in_flight[host] = max(self.most_in_flight.get(host, 0), self.in_flight[host])
                try:
                    status, headers, body = await self.answer(host, path)
                finally:
                    self.in_flight[host] -= 1
                self.last = time.monotonic()
                lines = [f"HTTP/1.1 {status} X", f"Content-Length: {len(body)}"]
                lines += [f"{k}: {v}" for k, v in headers.items()]
                writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, IndexError, ValueError):
            pass
        finally:
            writer.close()

    def stats(self):
        histogram = {}
        for most in self.most_in_flight.values():
            histogram[most] = histogram.get(most, 0) + 1
        return {"requests": self.requests, "pages": len(self.served), "lost": self.hosts * self.pages - len(self.served),
                "twice": sum(1 for v in self.served.values() if v > 1), "raUrl": self.ra_url,
                "robotsViolations": self.robots_violations, "mostInFlight": dict(sorted(histogram.items())),
                "seconds": round((self.last or 0) - (self.first or 0), 2),
                "firstAt": self.first, "lastAt": self.last}

    async def control(self, reader, writer):
        head = await reader.readuntil(b"\r\n\r\n")
        if head.split(b" ")[1] == b"/reset":
            self.reset()
        body = json.dumps(self.stats()).encode()
        writer.write(b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: "
                     + str(len(body)).encode() + b"\r\n\r\n" + body)
        await writer.drain()
        writer.close()


async def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hosts", type=int, default=100)
    p.add_argument("--pages", type=int, default=100)
    p.add_argument("--port", type=int, default=18181)
    p.add_argument("--control", type=int, default=18182)
    p.add_argument("--latency", type=int, default=300, help="ms an answer takes")
    p.add_argument("--faults", action="store_true")
    a = p.parse_args()
    farm = Farm(a.hosts, a.pages, a.port, a.latency, a.faults)
    servers = [await asyncio.start_server(farm.serve, address(i), a.port, backlog=1024) for i in range(a.hosts)]
    servers.append(await asyncio.start_server(farm.control, "127.0.0.1", a.control))
    print("ready", flush=True)
    await asyncio.gather(*(s.serve_forever() for s in servers))


if __name__ == "__main__":
    asyncio.run(main())
