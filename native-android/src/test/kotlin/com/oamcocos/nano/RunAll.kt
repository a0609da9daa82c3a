package com.oamcocos.nano

import org.junit.runner.JUnitCore
import kotlin.system.exitProcess

/** Runs every JVM test class and prints one summary line for scripts/test.sh. */
fun main() {
    val result = JUnitCore.runClasses(
        FixtureReplayTest::class.java,
        BridgeHostTest::class.java,
        SurrogateSafeChunkerTest::class.java,
        NanoErrorsTest::class.java,
        LifecycleTest::class.java,
        CocosBridgeTest::class.java,
        ImageInputTest::class.java,
    )
    for (failure in result.failures) {
        println("FAIL ${failure.testHeader}")
        println("  ${failure.message}")
        failure.exception?.stackTrace?.take(6)?.forEach { println("    at $it") }
    }
    val failed = result.failureCount
    println("kotlin: ${result.runCount - failed} passed, $failed failed")
    exitProcess(if (failed == 0 && result.runCount > 0) 0 else 1)
}
