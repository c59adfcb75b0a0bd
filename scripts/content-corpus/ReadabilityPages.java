import dev.loomcrawl.crawler.content.MainContent;
import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.ContentRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jsoup.Jsoup;

/** Writes loomcrawl's main content (text) of each test-pages/NAME/source.html as NAME/loomcrawl.txt. Run by readability-pages.py. */
public class ReadabilityPages {
    public static void main(String[] args) throws Exception {
        try (var dirs = Files.list(Path.of(args[0]))) {
            for (Path dir : dirs.sorted().toList()) {
                Path source = dir.resolve("source.html");
                if (Files.exists(source)) {
                    var doc = Jsoup.parse(Files.readString(source), "http://fakehost/test/page.html");
                    var content = MainContent.of(doc, new ContentRequest(ContentFormat.TEXT, 10_000_000)).content();
                    Files.writeString(dir.resolve("loomcrawl.txt"), content.text());
                }
            }
        }
    }
}
