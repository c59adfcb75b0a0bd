# Shared by the checkout's ./loomcrawl and the release's bin/loomcrawl (sourced, not run): finding a JDK, the
# JVM options each command runs with, and the start-up cache. Measured with `bench --cold`; see the README's
# "Cold one-shot crawls".

# Major version of the JDK at $1 (a JDK home), read from its release file without starting a JVM (and in bash
# itself: the launcher asks it of every JDK it finds, and each program it starts costs a cold crawl ~2 ms).
jdk_major() {
  local v="" line
  if [ -r "$1/release" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
      if [[ $line =~ ^JAVA_VERSION=\"([0-9]+) ]]; then v="${BASH_REMATCH[1]}"; break; fi
    done < "$1/release"
  fi
  if [ -z "$v" ] && [ -x "$1/bin/java" ]; then
    v=$("$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9][0-9]*\).*/\1/p' | head -n 1)
  fi
  echo "${v:-0}"
}

# The JDK (or runtime, when $1 is "runtime") to run on: JAVA_HOME when it is 21+, else the newest 21+ found.
find_jdk() {
  local need_javac=$([ "${1:-}" = runtime ] && echo no || echo yes)
  local candidates=() home best="" best_major=0 major
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v java >/dev/null 2>&1; then
    home="$(readlink -f "$(command -v java)")" # .../bin/java: the home is two levels up
    home="${home%/*}"
    candidates+=("${home%/*}")
  fi
  for home in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/* \
              "$HOME"/.jdks/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$home" ] && candidates+=("$home")
  done
  for home in "${candidates[@]}"; do
    [ -x "$home/bin/java" ] || continue
    [ "$need_javac" = no ] || [ -x "$home/bin/javac" ] || continue
    major=$(jdk_major "$home")
    if [ "$home" = "${JAVA_HOME:-}" ] && [ "$major" -ge 21 ]; then echo "$home"; return; fi
    if [ "$major" -gt "$best_major" ]; then best="$home"; best_major=$major; fi
  done
  if [ "$best_major" -ge 21 ]; then echo "$best"; fi
}

# The commands a person runs one-shot from a shell, whose start-up counts: tuned options and the start-up cache.
one_shot() {
  case "$1" in crawl|resume|export|jobs) return 0 ;; esac
  return 1
}

# JVM options for the JDK at $1 and the command line in "${@:2}", in $jvm_opts. A crawl bounded to 50,000 pages
# or fewer (the default bound is 10,000) runs on the C1 compiler alone: C2's work pays back only on longer
# crawls (C1: -31% CPU on 10,000 pages, -18% on 40,000, +13% on 100,000). A longer bound keeps the full JIT.
# Crawls and resumes use the parallel collector (against G1 on 100,000 pages: -17% CPU, -14% wall; against
# the serial collector on 10,000: the same CPU, -10% wall) with the heap bounded to 768 MB (100,000 pages:
# ~920 MB peak RSS instead of 2.6 GB). On JDK 25+ they also use compact object headers (JEP 519: 8-byte
# headers; -6% CPU on a cold 10,000-page crawl, -6 to -9% on 100,000). With C1 alone the code cache is 48 MB,
# and the JVM runs a full collection to unload code once 15% of it (7.2 MB) has been compiled: 110 ms of both
# cores near the end of a 10,000-page crawl. 128 MB (reserved, not committed) moves that line past what a
# crawl compiles (-4% CPU). With C1 alone the JVM starts one compiler thread below 4 CPUs, and a cold crawl's
# first second queues thousands of methods behind it while the pages run interpreted: three threads (what the
# JVM itself picks at 4 CPUs) cost a 10,000-page crawl less CPU, not more (2 CPUs, interleaved pairs: wide 0.86x
# CPU and 0.87x wall, deep 0.95x and 0.97x, rough 0.88x and 0.96x). The HTTP client reads into 8 KB buffers
# instead of 16: each connection it keeps open holds on to its last one (100,000 pages: ~20 MB less live heap,
# -4% CPU and wall). Long crawls and resumes fix the young generation at 384 MB: the collector sized eden near
# 140 MB, so a young collection came every 0.4 s, while a page's objects live about as long (a fetch of 300 ms
# and its queueing), and were copied and promoted instead of dying young (100,000 pages, interleaved pairs:
# 0.97x CPU and wall, 6 of 7 lower; 512 MB: 1.02x CPU against 384; short crawls: 0.97x CPU for +50 MB of RSS,
# not taken). serve, bench, demo and mock-sites keep the JVM's defaults. JVM warnings go to stderr:
# stdout is the command's own.
# bench --cold mirrors the crawl options and the 50,000 line (ColdBench.LAUNCHER_OPTIONS, SHORT_CRAWL_PAGES).
jvm_options() {
  local jdk="$1" max_pages=10000 prev="" arg # 10,000: crawl's default
  shift
  for arg in "$@"; do
    case "$arg" in --max-pages=*) max_pages="${arg#--max-pages=}" ;; esac
    [ "$prev" = "--max-pages" ] && max_pages="$arg"
    prev="$arg"
  done
  local parallel="-XX:+UseParallelGC" serial="-XX:+UseSerialGC" young="-Xmn384m"
  # A collector named in LOOMCRAWL_JAVA_OPTS (which come after these) replaces ours: the JVM refuses two. Our
  # young generation's size was measured for ours, and a fixed one takes G1's pause-time sizing away.
  if [[ " ${LOOMCRAWL_JAVA_OPTS:-} " =~ [[:space:]]-XX:\+Use[A-Za-z0-9]*GC[[:space:]] ]]; then
    parallel="" serial="" young=""
  fi
  # So does a heap size of yours (a young generation larger than -Xmx300m would be the whole heap).
  if [[ " ${LOOMCRAWL_JAVA_OPTS:-} " =~ [[:space:]]-(Xmx|Xmn|XX:MaxHeapSize=|XX:NewSize=|XX:MaxNewSize=) ]]; then
    young=""
  fi
  jvm_opts="-Xlog:disable -Xlog:all=warning:stderr"
  local buffers="-Djdk.httpclient.bufsize=8192"
  # The full JIT's C2 takes a method three times later than the JVM would: on a 100,000-page crawl its
  # threads held a quarter of the CPU; later, on longer profiles, the crawl takes ~7% less CPU (README). And it
  # does not inline a callee it has already compiled to more than 500 bytes of code (the JVM raises x86's own
  # 1,000 to 2,500 when C1 and C2 run tiered), so it compiles big callees once instead of again into each
  # caller: C2's time on a 100,000-page crawl 16.6 s against 26.1, the crawl's CPU -7% (README).
  local c2tuning="-XX:Tier4InvocationThreshold=15000 -XX:Tier4MinInvocationThreshold=1800"
  c2tuning="$c2tuning -XX:Tier4CompileThreshold=45000 -XX:Tier4BackEdgeThreshold=120000 -XX:InlineSmallCode=500"
  case "${1:-}" in
    crawl)
      if [ "${max_pages//[^0-9]/}" = "$max_pages" ] && [ "$max_pages" -le 50000 ] 2>/dev/null; then
        # short: C1 alone, with at least three compiler threads (the JVM gives C1 alone one below 4 CPUs;
        # the CPUs are counted by a glob, so no program is started for it, and left alone where it finds none)
        local cpus=(/sys/devices/system/cpu/cpu[0-9]*) compilers=""
        if [ -e "${cpus[0]}" ] && [ "${#cpus[@]}" -lt 4 ]; then compilers="-XX:CICompilerCount=3"; fi
        # and one HTTP client, not one per core: one selector thread and one pool for all the connections (10,000
        # pages, interleaved pairs: deep 0.98x CPU twice, wide 0.97x CPU and wall; 40,000 pages of 1,000 hosts 0.99x;
        # a long crawl's thousands of idle connections make one pool's expiry list slow, so long crawls keep more)
        local one_client="-Dloomcrawl.clients=1"
        jvm_opts="$jvm_opts -XX:TieredStopAtLevel=1 $compilers -XX:ReservedCodeCacheSize=128m $parallel -Xmx768m $buffers $one_client"
      else
        jvm_opts="$jvm_opts $c2tuning $parallel -Xmx768m $young $buffers" # long: the full JIT
      fi ;;
    resume) jvm_opts="$jvm_opts $c2tuning $parallel -Xmx768m $young $buffers" ;;
    export|jobs) jvm_opts="$jvm_opts -XX:TieredStopAtLevel=1 $serial" ;;
  esac
  # Every one-shot command calls methods and constructors reflectively through the JVM's native accessors instead
  # of method handles (JEP 416 kept the switch; fields keep theirs): picocli, Jackson and the signal handler call
  # them at start-up only, and each method handle was a class made at run time (11 fewer a crawl) plus C1's work
  # on the code that makes them. Interleaved pairs of cold crawls: deep 0.98x CPU (16 pairs, both orders), wide
  # 0.975x (7 of 8 lower), jobs 0.94x (10 of 10); 100,000 pages and export the same.
  if one_shot "${1:-}"; then
    jvm_opts="$jvm_opts -Djdk.reflect.useNativeAccessorOnly=true"
    if [ "$(jdk_major "$jdk")" -ge 25 ]; then jvm_opts="$jvm_opts -XX:+UseCompactObjectHeaders"; fi
  fi
}

# The start-up cache: on JDK 25+, an AOT cache (JEP 483, made in one step as JEP 514 allows) of the classes a
# crawl loads and links, so a cold crawl neither reads nor verifies them again. It is made once per build of
# the application, per JDK and per JIT (C1 alone, or the full JIT of long crawls and resumes), by a short
# crawl of a local mock farm ("aot-training") under the options of the command that first needs it (crawl,
# resume, export or jobs), and kept in $3 (a folder). Adds "-XX:AOTCache=..." to $jvm_opts.
#   $1 the command (crawl, serve, ...)   $2 the JDK home   $3 the cache folder   $4 the folder of the
#   application's libraries   $5 its main jar   $6... the class path arguments of java (-jar X, or -cp X Main)
# The JVM does not check that the jars behind the manifest's Class-Path are the ones the cache was made
# from (it used a rebuilt jar's old classes in a trial), so the launcher does: the cache's name carries the
# jars' names and sizes, and a jar newer than the cache makes a new one.
# LOOMCRAWL_START_CACHE=off leaves it out; a failed training is not tried again until the next build.
start_cache() {
  local command="$1" jdk="$2" dir="$3" jars="$4" main="$5" cache
  shift 5
  one_shot "$command" || return 0
  [ "${LOOMCRAWL_START_CACHE:-on}" = off ] && return 0
  # A flight recording loads the jdk.jfr module, which the cache was not made with: the JVM would refuse the
  # cache, with errors on stderr. A profile runs without it.
  [[ " ${LOOMCRAWL_JAVA_OPTS:-} " == *" -XX:StartFlightRecording"* ]] && return 0
  [ "$(jdk_major "$jdk")" -ge 25 ] || return 0
  # One cache for the full JIT, one for C1 alone, each recorded under its own options: a cache holds the
  # training run's method profiles only where the full JIT ran it, and one recorded under C1 alone cost a
  # 100,000-page crawl 1.11x the CPU of none, where one recorded under the full JIT took 0.93x.
  local jit=c1
  [[ " $jvm_opts " == *" -XX:TieredStopAtLevel=1 "* ]] || jit=c2
  cache_file "$jit" "$jdk" "$dir" "$jars" "$main"
  cache="$cache_file"
  if ! newer_than_jars "$cache" "$jars" "$main"; then
    newer_than_jars "$cache.failed" "$jars" "$main" && return 0
    mkdir -p "$dir" 2>/dev/null || return 0
    local old
    for old in "$dir"/crawl-*.aot "$dir"/crawl-*.failed; do # earlier builds' (this build's other JIT's stays)
      case "$old" in "$cache_prefix-"*) ;; *) rm -f "$old" ;; esac
    done
    echo "loomcrawl: recording a start-up cache for this build, JDK and JIT (once; about 10 s)..." >&2
    local tmp="$cache.$$.tmp"
    # shellcheck disable=SC2086 # the options are lists
    if "$jdk/bin/java" $jvm_opts -XX:AOTCacheOutput="$tmp" "$@" aot-training >"$dir/training.log" 2>&1 \
        && [ -s "$tmp" ]; then
      mv -f "$tmp" "$cache"
    else
      rm -f "$tmp" "$tmp.config"
      touch "$cache.failed"
      echo "loomcrawl: no start-up cache (see $dir/training.log); crawls start without it" >&2
      return 0
    fi
  fi
  jvm_opts="$jvm_opts -XX:AOTCache=$cache"
}

# The start-up cache of JIT $1 (c1: C1 alone; c2: the full JIT) for this build and JDK, in $cache_file, and what
# both JITs' caches of this build and JDK start with, in $cache_prefix; it may not exist yet. $2 the JDK home,
# $3 the cache folder, $4 the application's libraries, $5 its main jar.
cache_file() {
  local key
  key=$( { echo "$2"; cat "$2/release" 2>/dev/null; ls -ln "$4" "$5"; } | cksum | cut -d ' ' -f 1)
  cache_prefix="$3/crawl-$key"
  cache_file="$cache_prefix-$1.aot"
}

# Whether file $1 exists and no jar of $2 (the libraries' folder) or $3 (the main jar) is newer than it.
newer_than_jars() {
  [ -f "$1" ] && [ -z "$(find "$2" "$3" -newer "$1" -print -quit)" ]
}

# For bench: the start-up caches a crawl would run with now (recorded, and newer than every jar), exported as
# LOOMCRAWL_CRAWL_CACHE_C1 and LOOMCRAWL_CRAWL_CACHE_C2, so that bench --cold runs its crawls as this launcher
# runs a crawl. None is recorded here: a first crawl does that.   $1 the JDK home, $2-$4 as start_cache's $3-$5
bench_caches() {
  local jdk="$1" dir="$2" jars="$3" main="$4" jit
  [ "${LOOMCRAWL_START_CACHE:-on}" = off ] && return 0
  [ "$(jdk_major "$jdk")" -ge 25 ] || return 0
  for jit in c1 c2; do
    cache_file "$jit" "$jdk" "$dir" "$jars" "$main"
    if newer_than_jars "$cache_file" "$jars" "$main"; then
      export "LOOMCRAWL_CRAWL_CACHE_${jit^^}=$cache_file"
    fi
  done
}
