#!/usr/bin/env bash
# Compiles the Kotlin module (main sources + compile-only API mirrors + tests) with the
# kotlin-compiler npm package on the JDK, then runs the JVM tests, which replay the shared
# fixtures in fixtures/bridge/. Needs Debian's libandroid-json-java (Android's org.json) and
# junit4 (+ hamcrest). Exit status is non-zero on any failure.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
kotlin_home="$root/node_modules/kotlin-compiler"
kotlinc="$kotlin_home/bin/kotlinc-jvm"

first_jar() { for f in "$@"; do [ -f "$f" ] && { echo "$f"; return 0; }; done; return 1; }
json_jar="$(first_jar /usr/share/java/json.jar /usr/share/java/android-json.jar /usr/share/java/com.android.json.jar)" \
  || { echo "native-android: org.json jar missing: apt-get install libandroid-json-java" >&2; exit 1; }
junit_jar="$(first_jar /usr/share/java/junit4.jar)" || { echo "native-android: apt-get install junit4" >&2; exit 1; }
hamcrest_jar="$(first_jar /usr/share/java/hamcrest-core.jar /usr/share/java/hamcrest.jar)" || { echo "native-android: hamcrest jar missing (comes with junit4)" >&2; exit 1; }
coroutines_jar="$kotlin_home/lib/kotlinx-coroutines-core-jvm.jar"
[ -x "$kotlinc" ] && [ -f "$coroutines_jar" ] || { echo "native-android: run npm ci (kotlin-compiler)" >&2; exit 1; }

out="${OAM_KOTLIN_OUT:-$root/tests/artifacts/kotlin-classes}"
rm -rf "$out" && mkdir -p "$out"
cp="$coroutines_jar:$json_jar:$junit_jar:$hamcrest_jar"

# One kotlinc run for everything: it is slow to start on small machines.
mapfile -t sources < <(find "$here/src/main/kotlin" "$here/src/test/mirrors" "$here/src/test/kotlin" -name '*.kt' | sort)
"$kotlinc" -nowarn -jvm-target 17 -cp "$cp" -d "$out" "${sources[@]}" 2>&1 | grep -v '^warning: unable to find kotlin-stdlib' || true
[ -f "$out/com/oamcocos/nano/RunAllKt.class" ] || { echo "kotlin: compilation failed" >&2; exit 1; }

java -Doam.fixtures="$root/fixtures/bridge" -cp "$out:$cp:$kotlin_home/lib/kotlin-stdlib.jar" com.oamcocos.nano.RunAllKt
