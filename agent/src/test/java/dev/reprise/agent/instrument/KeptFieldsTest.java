package dev.reprise.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.reprise.agent.instrument.cache.CacheEntry;

/**
 * The fields a cache hit keeps for a class ({@link CacheEntry#declaredBytes}) answer what a class
 * instrumented anew asks about them, and a damaged section answers as fields no one knows.
 */
class KeptFieldsTest {
    private static final VolatileFields.Declared FIELDS =
            new VolatileFields.Declared("app/Base", Set.of("count", "state", "name", "table"), Set.of("state"), Set.of("name"), Set.of("table"), true);

    @Test
    void keptFieldsAnswerWhenAskedAndADamagedSectionAnswersAsUnknownFields() {
        VolatileFields fields = new VolatileFields();
        fields.defineKept("app/Base", CacheEntry.declaredBytes(FIELDS));
        fields.defineKept("app/Sub", CacheEntry.declaredBytes(
                new VolatileFields.Declared("app/Base", Set.of("own"), Set.of(), Set.of(), Set.of(), false)));
        assertEquals("app/Base", fields.orderedDeclarer(null, "app/Sub", "state", false), "volatile, declared above");
        assertEquals(null, fields.orderedDeclarer(null, "app/Sub", "count", false), "plain");
        assertEquals("app/Base", fields.orderedDeclarer(null, "app/Sub", "table", false), "named by its declarer's own handle");
        assertEquals("app/Base", fields.hashCodeDeclarer(null, "app/Sub"));

        byte[] cut = CacheEntry.declaredBytes(FIELDS);
        fields.defineKept("app/Cut", java.util.Arrays.copyOf(cut, cut.length - 1));
        assertEquals(null, fields.orderedDeclarer(null, "app/Cut", "state", false), "no class file to read: unknown");
    }
}
