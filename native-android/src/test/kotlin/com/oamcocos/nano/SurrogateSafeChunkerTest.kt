package com.oamcocos.nano

import com.oamcocos.nano.core.SurrogateSafeChunker
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Test
import java.util.Random

class SurrogateSafeChunkerTest {
    private val grin = "\uD83D\uDE00"

    @Test
    fun holdsBackAHighSurrogateUntilItsPartnerArrives() {
        val c = SurrogateSafeChunker()
        assertEquals("Hi ", c.push("Hi \uD83D"))
        assertTrue(c.isHolding)
        assertEquals("$grin there", c.push("\uDE00 there"))
        assertFalse(c.isHolding)
        assertEquals("", c.finish())
    }

    @Test
    fun aPieceThatIsOnlyAHighSurrogateSendsNothing() {
        val c = SurrogateSafeChunker()
        assertEquals("", c.push("\uD83D"))
        assertEquals(grin, c.push("\uDE00"))
    }

    @Test
    fun aHighSurrogateLeftAtTheEndBecomesAReplacementChar() {
        val c = SurrogateSafeChunker()
        assertEquals("ok", c.push("ok\uD83D"))
        assertEquals("\uFFFD", c.finish())
        assertEquals("", c.finish())
    }

    @Test
    fun strayHalvesInsideAPieceAreReplaced() {
        val c = SurrogateSafeChunker()
        assertEquals("a\uFFFDb\uFFFDc", c.push("a\uDE00b\uD83Dc"))
        assertEquals("", c.push(""))
    }

    @Test
    fun anyCutOfEmojiTextGivesValidChunksThatAddUpToTheText() {
        val text = "Mira $grin waves 👋🏽 and says: ¡Hola! 🇪🇸 ${grin}${grin} end"
        val random = Random(42)
        repeat(500) {
            val c = SurrogateSafeChunker()
            val out = StringBuilder()
            var i = 0
            while (i < text.length) {
                val n = 1 + random.nextInt(4)
                val piece = text.substring(i, minOf(text.length, i + n))
                i += n
                val chunk = c.push(piece)
                if (chunk.isNotEmpty()) {
                    assertFalse("chunk ends on a high surrogate", Character.isHighSurrogate(chunk.last()))
                    assertFalse("chunk starts on a low surrogate", Character.isLowSurrogate(chunk.first()))
                }
                out.append(chunk)
            }
            out.append(c.finish())
            assertEquals(text, out.toString())
        }
    }
}
