package dev.reprise.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The agent's configuration reads back from its text form as {@code reprise} built it. */
class AgentConfigTest {
    @Test
    void aRecordingsConfigurationReadsBack() {
        AgentConfig c = AgentConfig.parse(AgentConfig.record(Path.of("/tmp/a rec&x")).order(Order.TO).logRelaxed(true)
                .classCache(Path.of("/tmp/cache")).orderedFields(List.of("a/B.f", "a/C.g"))
                .redactedEnv(List.of("*_TOKEN", "PASS,WORD")).recorder(4242).build().encode());
        assertEquals(Role.RECORD, c.role());
        assertEquals(Path.of("/tmp/a rec&x"), c.dir());
        assertEquals(Order.TO, c.order());
        assertEquals(true, c.logRelaxed());
        assertNull(c.chaosSeed());
        assertEquals(Path.of("/tmp/cache"), c.classCache());
        assertEquals(List.of("a/B.f", "a/C.g"), c.orderedFields());
        assertEquals(List.of("*_TOKEN", "PASS,WORD"), c.redactedEnv());
        assertEquals(4242, c.recorder());
    }

    @Test
    void aReplaysConfigurationReadsBack() {
        AgentConfig c = AgentConfig.parse(AgentConfig.replay(Path.of("/r"), 143).chaos(7L).build().encode());
        assertEquals(Role.REPLAY, c.role());
        assertEquals(143, c.recordedStatus());
        assertEquals(7L, c.chaosSeed());
        assertEquals(Order.RTO, c.order());
        assertNull(c.classCache());
        assertEquals(List.of(), c.orderedFields());
        assertEquals(0, c.recorder());
    }
}
