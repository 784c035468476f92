package dev.reprise.agent.runtime.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A divergence message names the sites of both sides by their ids, which are 14-bit hashes of the
 * sites' names: an id that several sites share must be named by all of them, never by whichever
 * registered first (a replay of H2 reported a read of {@code AtomicReference.get} as
 * {@code CopyOnWriteArrayList.addAllAbsent}).
 */
class SitesTest {
    @Test
    void anIdSharedBySitesNamesThemAll() {
        int id = Sites.register("java/util/concurrent/CopyOnWriteArrayList", "addAllAbsent", 697);
        assertEquals(id, Sites.register("java/util/concurrent/atomic/AtomicReference", "get", 88));
        assertEquals(id, Sites.register("java/util/concurrent/CopyOnWriteArrayList", "addAllAbsent", 697));
        assertEquals("java.util.concurrent.CopyOnWriteArrayList.addAllAbsent:697 or "
                + "java.util.concurrent.atomic.AtomicReference.get:88", Sites.nameOf(id));
    }

    @Test
    void aSiteOfItsOwnIdIsNamedAlone() {
        int id = Sites.register("test/Alone", "run", 1);
        assertEquals("test.Alone.run:1", Sites.nameOf(id));
    }

    @Test
    void manySitesOfOneIdAreCountedPastTheFirstThree() {
        int id = Sites.registerName("test.Many.m:0");
        List<String> same = new ArrayList<>();
        for (int line = 1; same.size() < 4; line++) {
            String name = "test.Many.m:" + line;
            if ((name.hashCode() & 0x3FFF) + 1 == id) {
                same.add(name);
                Sites.registerName(name);
            }
        }
        assertEquals("test.Many.m:0 or " + same.get(0) + " or " + same.get(1) + " (or 2 other sites)", Sites.nameOf(id));
    }
}
