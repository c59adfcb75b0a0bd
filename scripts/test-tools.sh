#!/usr/bin/env bash
# Finds, or installs when missing, the programs outside the JVM that some tests use, so that the README's
# test command (./mvnw verify) passes on a machine that has only a JDK. Maven runs this before the tests of
# the modules that need them (server, cli); it does nothing when everything is there.
#   python3 + prometheus_client   MetricsTest reads /metrics with the Prometheus project's own parser
#   chromium + chromedriver       DashboardTest drives the dashboard in a real headless browser
#   GNU time (/usr/bin/time)      the cold bench's test times whole processes with it
# Installing needs root (or sudo without a password) and Debian's packages; otherwise it says what to install.
set -uo pipefail

need=()
python3 -c 'import prometheus_client' 2>/dev/null || need+=(python3-prometheus-client)
{ command -v chromium >/dev/null || command -v chromium-browser >/dev/null; } || need+=(chromium)
[ -x /usr/bin/chromedriver ] || need+=(chromium-driver)
[ -x /usr/bin/time ] || need+=(time)
[ ${#need[@]} -eq 0 ] && exit 0

if command -v python3 >/dev/null && [[ " ${need[*]} " == *" python3-prometheus-client "* ]] \
        && python3 -m pip install --quiet prometheus-client >/dev/null 2>&1; then
    need=("${need[@]/python3-prometheus-client}")
fi
read -r -a need <<< "${need[*]}"
[ ${#need[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if sudo -n true 2>/dev/null; then sudo="sudo -n"; else
        echo "test-tools: some tests need ${need[*]}; install them (Debian: apt-get install ${need[*]}) and run again" >&2
        exit 1
    fi
fi
if ! command -v apt-get >/dev/null; then
    echo "test-tools: some tests need ${need[*]}; install them with your system's packages and run again" >&2
    exit 1
fi
echo "test-tools: installing ${need[*]} for the tests (Debian packages, once)" >&2
$sudo apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null \
    || { echo "test-tools: could not install ${need[*]}" >&2; exit 1; }
