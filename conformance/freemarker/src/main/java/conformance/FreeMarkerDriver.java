package conformance;

import java.io.File;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import freemarker.template.Configuration;
import freemarker.template.Template;

/** FreeMarker: renders a template from a directory with a generated data model to stdout. */
public final class FreeMarkerDriver {
    public static void main(String[] args) throws Exception {
        Configuration cfg = new Configuration(Configuration.VERSION_2_3_33);
        cfg.setDirectoryForTemplateLoading(new File(args[0]));
        cfg.setDefaultEncoding("UTF-8");
        cfg.setLocale(java.util.Locale.ROOT);
        Template t = cfg.getTemplate(args[1]);
        int n = Integer.parseInt(args[2]);
        List<Map<String, Object>> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("id", i);
            item.put("name", "item-" + Integer.toString(i * 31 % 997, 36));
            item.put("price", (i * 7919 % 10000) / 100.0);
            item.put("tags", List.of("t" + i % 3, "u" + i % 5));
            items.add(item);
        }
        Map<String, Object> model = Map.of("title", "Inventory", "items", items);
        Writer w = new OutputStreamWriter(System.out, StandardCharsets.UTF_8);
        t.process(model, w);
        w.flush();
    }
}
