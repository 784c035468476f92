package conformance;

import java.io.FileReader;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/** SnakeYAML: loads every document of a YAML file, sorts its mappings and dumps it back. */
public final class SnakeYamlDriver {
    public static void main(String[] args) throws Exception {
        DumperOptions opts = new DumperOptions();
        opts.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        Yaml yaml = new Yaml(opts);
        try (FileReader r = new FileReader(args[0])) {
            int i = 0;
            for (Object doc : yaml.loadAll(r)) {
                System.out.println("--- document " + i++);
                System.out.print(yaml.dump(sorted(doc)));
            }
        }
    }

    private static Object sorted(Object o) {
        if (o instanceof Map<?, ?> m) {
            Map<String, Object> out = new TreeMap<>();
            m.forEach((k, v) -> out.put(String.valueOf(k), sorted(v)));
            return out;
        }
        if (o instanceof List<?> l) {
            return l.stream().map(SnakeYamlDriver::sorted).toList();
        }
        return o;
    }
}
