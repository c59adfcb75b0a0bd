# Shared by the checkout's ./loomcrawl and the release's bin/loomcrawl (sourced, not run): finding a JDK, the
# JVM options of a command (read from conf/jvm.options, which bench --cold reads too), the class path of a
# command (the lab's libraries for demo, bench and mock-sites alone), and the start-up cache.

# Major version of the JDK at $1 (a JDK home), read from its release file without starting a JVM.
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

# Whether command $1 is the lab's (its libraries on its class path): demo, bench, mock-sites, and a command line
# that names no command of the application (bare --help lists every command).
lab_command() {
  case "${1:-}" in
    crawl|resume|jobs|export|serve|aot-training|--version|-V) return 1 ;;
  esac
  return 0
}

# JVM options of command $2 on the JDK at $1, from the options file $3, in $jvm_opts: the lines "all:" and
# "$2:", and "$2@N:" on JDK N or later. A collector named in LOOMCRAWL_JAVA_OPTS (which come after these)
# replaces ours: the JVM refuses two.
jvm_options() {
  local jdk="$1" command="$2" file="$3" line name min opts major
  major=$(jdk_major "$jdk")
  jvm_opts=""
  while IFS= read -r line || [ -n "$line" ]; do
    [[ $line =~ ^([a-z-]+)(@([0-9]+))?:[[:space:]]*(.*)$ ]] || continue
    name="${BASH_REMATCH[1]}" min="${BASH_REMATCH[3]:-0}" opts="${BASH_REMATCH[4]}"
    if { [ "$name" = all ] || [ "$name" = "$command" ]; } && [ "$major" -ge "$min" ]; then
      jvm_opts="$jvm_opts $opts"
    fi
  done < "$file"
  if [[ " ${LOOMCRAWL_JAVA_OPTS:-} " =~ [[:space:]]-XX:\+Use[A-Za-z0-9]*GC[[:space:]] ]]; then
    local kept="" opt
    for opt in $jvm_opts; do [[ $opt =~ ^-XX:\+Use[A-Za-z0-9]*GC$ ]] || kept="$kept $opt"; done
    jvm_opts="$kept"
  fi
}

# The start-up cache of a crawl: on JDK 25+, an AOT cache (JEP 483, made in one step as JEP 514 allows) of
# the classes a crawl loads and links, so that a cold crawl neither reads nor verifies them again (a cold
# 10,000-page crawl starts its first request in half the time). Made once per build and JDK, before the first
# crawl (the checkout's launcher makes it right after it builds), by two crawls of a small site on loopback
# (aot-training, under the crawl's options and class path: 1 s of crawling, 3-4 s of recording and writing the
# cache on 2 cores), kept in folder $2, used by crawl and resume. Adds "-XX:AOTCache=..." to $jvm_opts.
#   $1 the JDK home   $2 the cache folder   $3 the application's class path   ${@:4} the command line
# Why not from the user's own first crawl (-XX:AOTMode=record, then create): the first crawl takes 2.4 s more
# while it records and the second 1.1 s more while it makes the cache, where this costs the first alone and
# records the same classes whatever the first crawl happens to be.
# The JVM does not check that the jars are the ones the cache was made from, so the cache's name carries the
# jars' names and sizes, and a jar newer than the cache makes a new one. LOOMCRAWL_START_CACHE=off leaves it
# out; a failed training is not tried again until the next build.
start_cache() {
  local jdk="$1" dir="$2" app="$3" cache
  shift 3
  case "${1:-}" in crawl|resume) ;; *) return 0 ;; esac
  cache_wanted "$jdk" || return 0
  # A flight recording loads the jdk.jfr module, which the cache was not made with: the JVM would refuse it.
  [[ " ${LOOMCRAWL_JAVA_OPTS:-} " == *" -XX:StartFlightRecording"* ]] && return 0
  cache_file "$jdk" "$dir" "$app"
  cache="$cache_file"
  if ! newer_than_jars "$cache" "$app"; then
    newer_than_jars "$cache.failed" "$app" && return 0
    # A command line the crawl would refuse is refused at once (a JVM start, once per build), not after the
    # training: the crawl then runs without a cache and says why in its one line.
    # shellcheck disable=SC2086 # the options are lists
    "$jdk/bin/java" $jvm_opts -Dloomcrawl.checkOnly=true -cp "$app" dev.loomcrawl.cli.Main "$@" \
        >/dev/null 2>&1 </dev/null || return 0
    record_cache "$jdk" "$dir" "$app" "$cache" || return 0
  fi
  jvm_opts="$jvm_opts -XX:AOTCache=$cache"
}

# Records the start-up cache $4 (in folder $2) for the crawl's options in $jvm_opts, by aot-training on the
# application's class path $3 with the JDK at $1; fails when it could not (and the next try waits for a new build).
record_cache() {
  local jdk="$1" dir="$2" app="$3" cache="$4"
  mkdir -p "$dir" 2>/dev/null || return 1
  # Earlier builds' caches go; this build's may have just been made by a crawl started beside this one, whose JVM
  # is about to open it.
  local old
  for old in "$dir"/crawl-*.aot "$dir"/crawl-*.failed; do
    [ "$old" = "$cache" ] || rm -f "$old"
  done
  echo "loomcrawl: once per build and JDK, recording a start-up cache: a short crawl of a local site" \
    "whose loaded classes crawls reuse (a few seconds; LOOMCRAWL_START_CACHE=off skips it)..." >&2
  local tmp="$cache.$$.tmp" started=$SECONDS status=0
  # Ctrl-C during the training stops the command there (the JVM exits with 130 of its own, which would read as a
  # failed training) and leaves no half-written cache of 50 MB behind.
  # shellcheck disable=SC2064 # $tmp is fixed now
  trap "rm -f '$tmp' '$tmp.config'; exit 130" INT TERM
  # shellcheck disable=SC2086 # the options are lists
  "$jdk/bin/java" $jvm_opts -XX:AOTCacheOutput="$tmp" -cp "$app" dev.loomcrawl.cli.Main aot-training \
      >"$dir/training.log" 2>&1 </dev/null || status=$?
  trap - INT TERM
  if [ "$status" -ne 0 ] || [ ! -s "$tmp" ]; then
    rm -f "$tmp" "$tmp.config"
    touch "$cache.failed"
    echo "loomcrawl: no start-up cache (see $dir/training.log); crawls start without it" >&2
    return 1
  fi
  mv -f "$tmp" "$cache"
  echo "loomcrawl: start-up cache recorded in $((SECONDS - started)) s" >&2
}

# After the checkout's launcher has built the application: the crawl's start-up cache is recorded there and then,
# whatever the command, so that no crawl after a build pays for it (the first crawl after `./loomcrawl demo`, say);
# the build took a minute or more, the recording takes a few seconds.
#   $1 the JDK home   $2 the cache folder   $3 the application's class path   $4 the options file
record_cache_after_build() {
  local jdk="$1" dir="$2" app="$3" options="$4"
  cache_wanted "$jdk" || return 0
  jvm_options "$jdk" crawl "$options"
  cache_file "$jdk" "$dir" "$app"
  newer_than_jars "$cache_file" "$app" || record_cache "$jdk" "$dir" "$app" "$cache_file" || true
}

# Whether crawls on the JDK at $1 have a start-up cache: AOT caches need JDK 25+; LOOMCRAWL_START_CACHE=off says no.
cache_wanted() {
  [ "${LOOMCRAWL_START_CACHE:-on}" != off ] && [ "$(jdk_major "$1")" -ge 25 ]
}

# The start-up cache for this build and JDK, in $cache_file (it may not exist yet). $1 the JDK home, $2 the
# cache folder, $3 the application's class path (jars, or folders ending in /*).
cache_file() {
  local key
  key=$( { echo "$1"; cat "$1/release" 2>/dev/null; ls -ln ${3//:/ } 2>/dev/null; } | cksum | cut -d ' ' -f 1)
  cache_file="$2/crawl-$key.aot"
}

# Whether file $1 exists and no jar of class path $2 is newer than it.
newer_than_jars() {
  local entries=() entry
  [ -f "$1" ] || return 1
  for entry in ${2//:/ }; do entries+=("${entry%/\*}"); done
  # one find for them all: a find per jar costs 2 ms each, 0.1 s of every command on 60 jars
  [ -z "$(find "${entries[@]}" -name '*.jar' -newer "$1" -print -quit 2>/dev/null)" ]
}

# Runs command "${@:5}" on the JDK at $1: the application's class path $2, the lab's $3, the options file $4.
# The lab's commands get both class paths, and the application's own (loomcrawl.classpath) to start crawls
# with as a user's run (bench --cold); the start-up cache is recorded and used by crawl and resume.
run_loomcrawl() {
  local jdk="$1" app="$2" lab="$3" options="$4" cache_dir="$5"
  shift 5
  jvm_options "$jdk" "${1:-}" "$options"
  local cp="$app"
  if lab_command "${1:-}"; then
    cp="$app:$lab"
    jvm_opts="$jvm_opts -Dloomcrawl.classpath=$app -Dloomcrawl.jvmOptions=$options"
    [ "${1:-}" = bench ] && bench_cache "$jdk" "$cache_dir" "$app"
  fi
  # A command that only prints its help or version records no cache (10-40 s before it printed); the next crawl does.
  local arg only_says=no
  for arg in "$@"; do
    case "$arg" in -h|--help|-V|--version) only_says=yes ;; esac
  done
  [ "$only_says" = yes ] || start_cache "$jdk" "$cache_dir" "$app" "$@"
  # shellcheck disable=SC2086 # the options are lists
  exec "$jdk/bin/java" $jvm_opts ${LOOMCRAWL_JAVA_OPTS:-} -cp "$cp" dev.loomcrawl.cli.Main "$@"
}

# For bench: the start-up cache a crawl would run with now (recorded, and newer than every jar), exported as
# LOOMCRAWL_CRAWL_CACHE, so that bench --cold runs its crawls as this launcher runs a crawl. None is recorded
# here: a first crawl does that.   $1 the JDK home, $2 the cache folder, $3 the application's class path
bench_cache() {
  cache_wanted "$1" || return 0
  cache_file "$1" "$2" "$3"
  if newer_than_jars "$cache_file" "$3"; then
    export LOOMCRAWL_CRAWL_CACHE="$cache_file"
  fi
}
