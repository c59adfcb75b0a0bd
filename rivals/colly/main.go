// Command colly-farm crawls a loomcrawl mock-sites farm with Colly (github.com/gocolly/colly), the fastest
// open-source crawler we know, configured as a fair rival: asynchronous, at most -per-host requests in flight
// to each host, robots.txt obeyed, links followed -depth levels from each seed (loomcrawl's --max-depth), the
// seeds visited side by side, and as many idle connections kept per host as requests in flight.
//
// It is what `loomcrawl bench --cold --rival=...` times against loomcrawl on the same farm:
//
//	(cd rivals/colly && go build -o colly-farm .)
//	./loomcrawl bench --cold --scenario=deep --runs=3 \
//	    --rival="rivals/colly/colly-farm -seeds {seeds} -depth {max-depth} -per-host {per-host}"
//
// The farm's hosts (hN.loomcrawl.test) are dialled on 127.0.0.1, so /etc/hosts is left alone. It prints one JSON
// line: the responses it had, the errors, and its wall time; the bench counts pages at the farm instead.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocolly/colly/v2"
)

func main() {
	seedsFile := flag.String("seeds", "", "file of seed URLs, one a line (# comments)")
	depth := flag.Int("depth", 2, "links followed from a seed, as loomcrawl's --max-depth counts them")
	perHost := flag.Int("per-host", 8, "requests in flight to one host at most")
	retries := flag.Int("retries", 2, "further attempts after an error (a 5xx, a 429, a reset), at once, as Colly retries")
	flag.Parse()
	seeds, hosts, err := readSeeds(*seedsFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "colly-farm:", err)
		os.Exit(2)
	}
	domains := make([]string, 0, len(hosts))
	for _, h := range hosts {
		domains = append(domains, strings.SplitN(h, ":", 2)[0])
	}
	// Colly counts the seed as depth 1; loomcrawl counts it as 0.
	c := colly.NewCollector(colly.Async(true), colly.MaxDepth(*depth+1), colly.AllowedDomains(domains...))
	c.IgnoreRobotsTxt = false
	c.WithTransport(farmTransport(*perHost))
	// One rule per host: a rule's parallelism is shared by every host its glob matches.
	for _, h := range hosts {
		if err := c.Limit(&colly.LimitRule{DomainGlob: h, Parallelism: *perHost}); err != nil {
			fmt.Fprintln(os.Stderr, "colly-farm:", err)
			os.Exit(2)
		}
	}
	var responses, failed atomic.Int64
	// Attempts by URL: a request's context is shared with every request made from its page (Request.Visit passes
	// it on), so a count kept there would be the whole site's, not the URL's.
	var mu sync.Mutex
	attempts := map[string]int{}
	c.OnHTML("a[href]", func(e *colly.HTMLElement) { e.Request.Visit(e.Attr("href")) })
	c.OnResponse(func(r *colly.Response) { responses.Add(1) })
	c.OnError(func(r *colly.Response, err error) {
		u := r.Request.URL.String()
		mu.Lock()
		retry := attempts[u] < *retries
		attempts[u]++
		mu.Unlock()
		if retry {
			r.Request.Retry()
			return
		}
		failed.Add(1)
	})
	start := time.Now()
	// Visit fetches the host's robots.txt before it returns: the seeds go side by side, not one host after another.
	var seeded sync.WaitGroup
	for _, u := range seeds {
		seeded.Add(1)
		go func() {
			defer seeded.Done()
			c.Visit(u)
		}()
	}
	seeded.Wait()
	c.Wait()
	fmt.Printf("{\"responses\":%d,\"failed\":%d,\"seconds\":%.3f}\n", responses.Load(), failed.Load(),
		time.Since(start).Seconds())
}

// readSeeds returns the seed URLs of a file and their hosts (with ports), each host once.
func readSeeds(path string) (seeds, hosts []string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	seen := map[string]bool{}
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		u := strings.TrimSpace(lines.Text())
		if u == "" || strings.HasPrefix(u, "#") {
			continue
		}
		rest, ok := strings.CutPrefix(u, "http://")
		if !ok {
			return nil, nil, fmt.Errorf("not an http:// URL: %q", u)
		}
		host := strings.SplitN(rest, "/", 2)[0]
		seeds = append(seeds, u)
		if !seen[host] {
			seen[host] = true
			hosts = append(hosts, host)
		}
	}
	if len(seeds) == 0 {
		return nil, nil, fmt.Errorf("no seeds in %s", path)
	}
	return seeds, hosts, lines.Err()
}

// farmTransport is Go's default transport, with the farm's names dialled on 127.0.0.1 and a connection kept
// idle for each request a host may have in flight (Go keeps 2 by default, and would open a new one for the rest).
func farmTransport(perHost int) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err == nil && strings.HasSuffix(host, ".loomcrawl.test") {
			addr = net.JoinHostPort("127.0.0.1", port)
		}
		return dialer.DialContext(ctx, network, addr)
	}
	t.MaxIdleConns = 0 // no limit over all hosts
	t.MaxIdleConnsPerHost = perHost
	return t
}
