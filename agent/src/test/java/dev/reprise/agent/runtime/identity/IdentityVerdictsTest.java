package dev.reprise.agent.runtime.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Which classes hash by identity, asked as the hash maps of a program ask: over and over, for
 * classes whose names share a slot of the verdict table. "Aa" and "BB" have one string hash, so
 * the names of these nested classes, each two of them, all hash alike: more than a slot's two
 * entries hold.
 */
class IdentityVerdictsTest {
    static final class AaAa {
    }

    static class AaBB {
        @Override
        public int hashCode() {
            return 1;
        }
    }

    /** Inherits its superclass's hashCode. */
    static final class BBAa extends AaBB {
    }

    static final class BBBB {
    }

    @Test
    void classesSharingASlotEachKeepTheirVerdict() {
        Class<?>[] classes = {AaAa.class, AaBB.class, BBAa.class, BBBB.class};
        boolean[] expected = {true, false, false, true};
        for (int i = 1; i < classes.length; i++) {
            assertEquals(classes[0].getName().hashCode(), classes[i].getName().hashCode(), classes[i].getName());
        }
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < classes.length; i++) {
                assertEquals(expected[i], IdentityVerdicts.byIdentity(classes[i]), classes[i].getName());
            }
        }
    }

    @Test
    void arraysAndEnumsHashByIdentity() {
        assertTrue(IdentityVerdicts.byIdentity(int[].class));
        assertTrue(IdentityVerdicts.byIdentity(String[].class));
        assertTrue(IdentityVerdicts.byIdentity(Thread.State.class));
        assertFalse(IdentityVerdicts.byIdentity(String.class));
        assertFalse(IdentityVerdicts.byIdentity(java.util.ArrayList.class));
    }
}
