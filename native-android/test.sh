#!/usr/bin/env bash
# Compiles the Kotlin module (main sources + compile-only ML Kit and Android mirrors + tests)
# with the kotlin-compiler npm package on the JDK, against the REAL Cocos Java classes it uses
# (JsbBridge.java, JsbBridgeWrapper.java of the engine v3.8.5, compiled here with javac), then
# runs the JVM tests, which replay the shared fixtures in fixtures/bridge/. Warnings are shown
# and fail the run (-Werror). Needs Debian's libandroid-json-java (Android's org.json) and
# junit4 (+ hamcrest). Exit status: 0 passed, 3 the Cocos engine tree was not found (the
# module was not compiled, so nothing passed), anything else a failure.
#
# The engine, first found wins (the rule of scripts/test-engine.mjs):
#   OAM_COCOS_ENGINE         a prepared engine tree (prepare.sh output)
#   OAM_COCOS_ENGINE_SOURCE  a folder with cocos-engine-3.8.5/ (default: ../shared/cocos-engine beside the repo)
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

cocos_java_rel="native/cocos/platform/android/java/src/com/cocos/lib"
if [ -n "${OAM_COCOS_ENGINE:-}" ]; then
  cocos_java="$OAM_COCOS_ENGINE/$cocos_java_rel"
else
  cocos_java="${OAM_COCOS_ENGINE_SOURCE:-$root/../shared/cocos-engine}/cocos-engine-3.8.5/$cocos_java_rel"
fi
if [ ! -f "$cocos_java/JsbBridge.java" ] || [ ! -f "$cocos_java/JsbBridgeWrapper.java" ]; then
  echo "native-android: NOT RUN: the real Cocos Java classes are not at $cocos_java (set OAM_COCOS_ENGINE or OAM_COCOS_ENGINE_SOURCE)" >&2
  exit 3
fi

out="${OAM_KOTLIN_OUT:-$root/tests/artifacts/kotlin-classes}"
cocos_out="$out-cocos"
rm -rf "$out" "$cocos_out" && mkdir -p "$out" "$cocos_out"

# The real com.cocos.lib classes the module uses (they need no android.* class).
javac --release 8 -d "$cocos_out" "$cocos_java/JsbBridge.java" "$cocos_java/JsbBridgeWrapper.java" \
  || { echo "native-android: javac failed on the real Cocos classes in $cocos_java" >&2; exit 1; }
echo "native-android: compiled against the real Cocos classes from $cocos_java"
cp="$cocos_out:$coroutines_jar:$json_jar:$junit_jar:$hamcrest_jar"

# One kotlinc run for everything: it is slow to start on small machines.
mapfile -t sources < <(find "$here/src/main/kotlin" "$here/src/test/mirrors" "$here/src/test/kotlin" -name '*.kt' | sort)
log="$out.log"
set +e
"$kotlinc" -Werror -jvm-target 17 -cp "$cp" -d "$out" "${sources[@]}" >"$log" 2>&1
status=$?
set -e
cat "$log"
warnings=$(grep -c '^warning:\|: warning:' "$log" || true)
echo "kotlin: compiled with warnings shown, $warnings warning(s)"
[ "$status" -eq 0 ] && [ -f "$out/com/oamcocos/nano/RunAllKt.class" ] || { echo "kotlin: compilation failed" >&2; exit 1; }

java -Doam.fixtures="$root/fixtures/bridge" -Doam.cocosJava="$cocos_java" -cp "$out:$cp:$kotlin_home/lib/kotlin-stdlib.jar" com.oamcocos.nano.RunAllKt
