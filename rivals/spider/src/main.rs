//! spider-farm crawls a loomcrawl mock-sites farm with spider-rs (the `spider` crate), configured as a fair
//! rival, as Colly's is (rivals/colly): one `Website` per host, at most `-per-host` requests in flight to it,
//! robots.txt obeyed, 2 retries (spider waits out a `Retry-After` per URL), the hosts crawled side by side.
//!
//! It is what `loomcrawl bench --cold --rival=...` times against loomcrawl on the same farm:
//!
//! ```text
//! (cd rivals/spider && cargo build --release)
//! ./loomcrawl bench --cold --scenario=deep --runs=3 \
//!     --rival="rivals/spider/target/release/spider-farm -seeds {seeds} -depth {max-depth} -per-host {per-host}"
//! ```
//!
//! spider-rs has no bound on links followed from the seed (loomcrawl's --max-depth, Colly's MaxDepth): its
//! depth bounds a URL's path segments. It is set to `-depth` + 1, which holds every page of the farm's sites
//! (the farm counts each crawler's pages: the same). But `rough`'s calendar trap (`/calendar/N` links to
//! `/calendar/N+1`, forever, two segments deep) would then never be left: `-skip REGEX` leaves out the URLs it
//! matches (spider's blacklist), `/calendar/` unless told otherwise (`-skip ''` follows everything), so spider
//! asks for none of the trap's pages, where loomcrawl and Colly follow it `-depth` links deep (about 7 a host).
//!
//! The farm's hosts (hN.loomcrawl.test) are dialled on 127.0.0.1, so /etc/hosts is left alone. It prints one
//! JSON line: the pages it visited and its wall time; the bench counts pages at the farm instead.

use spider::reqwest;
use spider::tokio;
use spider::website::Website;
use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::process::exit;
use std::time::{Duration, Instant};

struct Args {
    seeds: String,
    depth: usize,
    per_host: usize,
    retries: u8,
    skip: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args { seeds: String::new(), depth: 2, per_host: 8, retries: 2, skip: Some("/calendar/".into()) };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || value.parse::<usize>().map_err(|_| format!("{flag}: not a number: {value}"));
        match flag.trim_start_matches('-') {
            "seeds" => args.seeds = value.clone(),
            "depth" => args.depth = number()?,
            "per-host" => args.per_host = number()?,
            "retries" => args.retries = number()?.min(255) as u8,
            "skip" => args.skip = Some(value.clone()).filter(|v| !v.is_empty()),
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    if args.seeds.is_empty() {
        return Err("-seeds FILE is needed".into());
    }
    Ok(args)
}

/// The seed URLs of a file (one a line, # comments), and their host names.
fn read_seeds(path: &str) -> Result<Vec<(String, String)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut seeds = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let url = reqwest::Url::parse(line).map_err(|e| format!("not a URL: {line}: {e}"))?;
        let host = url.host_str().ok_or_else(|| format!("no host: {line}"))?.to_string();
        seeds.push((line.to_string(), host));
    }
    if seeds.is_empty() {
        return Err(format!("no seeds in {path}"));
    }
    Ok(seeds)
}

/// One HTTP client shared by every `Website` (spider would build one per `Website`; a pool keeps connections
/// per host either way): the farm's names resolved to 127.0.0.1 (the port is the URL's), up to 10 redirects
/// followed, and as many idle connections kept per host as requests in flight.
fn farm_client(hosts: &BTreeSet<String>, per_host: usize) -> reqwest::Client {
    let loopback: SocketAddr = "127.0.0.1:0".parse().expect("an address");
    let mut builder = reqwest::Client::builder()
        .user_agent("spider-farm")
        .redirect(reqwest::redirect::Policy::limited(10))
        .connect_timeout(Duration::from_secs(30))
        .timeout(Duration::from_secs(120))
        .pool_max_idle_per_host(per_host)
        .tcp_nodelay(true);
    for host in hosts {
        builder = builder.resolve(host, loopback);
    }
    builder.build().expect("an HTTP client")
}

#[tokio::main]
async fn main() {
    let (args, seeds) = match parse_args().and_then(|a| read_seeds(&a.seeds).map(|s| (a, s))) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("spider-farm: {e}");
            exit(2);
        }
    };
    let hosts: BTreeSet<String> = seeds.iter().map(|(_, h)| h.clone()).collect();
    let client = farm_client(&hosts, args.per_host);
    let start = Instant::now();
    let mut crawls = tokio::task::JoinSet::new();
    for (seed, _) in seeds {
        let client = client.clone();
        let (depth, per_host, retries, skip) = (args.depth, args.per_host, args.retries, args.skip.clone());
        crawls.spawn(async move {
            let mut website = Website::new(&seed);
            website
                .with_respect_robots_txt(true)
                .with_depth(depth + 1) // path segments, not links followed: see above
                .with_concurrency_limit(Some(per_host))
                .with_retry(retries)
                .with_blacklist_url(skip.map(|s| vec![s.as_str().into()]));
            website.set_http_client(client);
            website.crawl().await;
            website.get_links().len()
        });
    }
    let mut pages = 0;
    while let Some(visited) = crawls.join_next().await {
        pages += visited.unwrap_or(0);
    }
    println!("{{\"responses\":{pages},\"seconds\":{:.3}}}", start.elapsed().as_secs_f64());
}
