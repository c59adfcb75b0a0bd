package dev.loomcrawl.cli;

import static org.assertj.core.api.Assertions.assertThat;


import dev.loomcrawl.bench.ChildProcess;
import dev.loomcrawl.mocksites.LatencyModel;
import dev.loomcrawl.mocksites.MockSites;
import dev.loomcrawl.mocksites.Scenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcResponse;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real headless Chromium (Debian's {@code chromium} and {@code chromium-driver}; the build
 * runs {@code scripts/test-tools.sh} first, which installs them when missing) against a real {@code serve} process with a token and a real farm: the page
 * asks for the token, a job is started through its form, and the page shows it running, then done.
 */
class DashboardTest {
    private static MockSites farm;

    @BeforeAll
    static void startFarm() {
        farm = MockSites.start(Scenario.DEMO.config().withSize(10, 10).withLatency(LatencyModel.fixed(300)));
    }

    @AfterAll
    static void stopFarm() {
        farm.close();
    }

    private static WebDriver browser() {
        return browser(null);
    }

    /** @param downloads where the browser saves what the page downloads, without asking */
    private static WebDriver browser(@Nullable Path downloads) {
        String binary = Files.isExecutable(Path.of("/usr/bin/chromium")) ? "/usr/bin/chromium" : "/usr/bin/chromium-browser";
        ChromeOptions options = new ChromeOptions().setBinary(binary)
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1100");
        if (downloads != null) {
            options.setExperimentalOption("prefs", Map.of("download.default_directory", downloads.toString(),
                    "download.prompt_for_download", false));
        }
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(Path.of("/usr/bin/chromedriver").toFile()).usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        if (downloads != null) {
            driver.executeCdpCommand("Browser.setDownloadBehavior", Map.of("behavior", "allow", "downloadPath",
                    downloads.toString()));
        }
        return driver;
    }

    @Test
    void aJobStartedFromTheFormShowsRunningThenDoneWithItsPageCount(@TempDir Path dir) throws Exception {
        ChildProcess serve = ChildProcess.start(Main.class.getName(), List.of("-Xmx512m"), List.of("serve", "--port=0",
                "--db=jdbc:h2:" + dir.resolve("db"), "--token=s3cret", "--no-pinning-watch",
                "--warc-dir=" + dir.resolve("warc")), ServeCommand.READY);
        Path downloads = Files.createDirectories(dir.resolve("downloads"));
        WebDriver browser = browser(downloads);
        try {
            browser.get("http://127.0.0.1:" + CrashRecoveryTest.port(serve) + "/");
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));

            // The server has a token: the page asks for it once.
            WebElement token = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token-input")));
            token.sendKeys("s3cret");
            browser.findElement(By.cssSelector("#token-form button")).click();
            wait.until(ExpectedConditions.textMatches(By.id("server"), java.util.regex.Pattern.compile("virtual mode")));

            browser.findElement(By.id("seeds")).sendKeys(String.join("\n", farm.seedUrls()));
            WebElement depth = browser.findElement(By.id("max-depth"));
            depth.clear();
            depth.sendKeys(Integer.toString(farm.graph().maxDepth() + 1));
            new Select(browser.findElement(By.id("content"))).selectByVisibleText("markdown");
            browser.findElement(By.id("start-button")).click();
            wait.until(ExpectedConditions.textToBe(By.id("start-result"), "job 1 started"));

            wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-job='1'][data-status='running']")));
            wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-job='1'][data-status='done']")));
            List<String> cells = browser.findElement(By.cssSelector("tr[data-job='1']")).findElements(By.tagName("td"))
                    .stream().map(WebElement::getText).toList();
            assertThat(cells.get(1)).isEqualTo("done");
            assertThat(cells.get(4)).isEqualTo("100"); // 10 hosts x 10 pages
            assertThat(cells.get(6)).isEqualTo("100"); // their /private/ links, skipped by robots.txt
            assertThat(browser.findElement(By.id("error")).getText()).isEmpty();
            // The live figures came in: requests were counted and charted.
            assertThat(browser.findElement(By.id("f-virtual")).getText()).isNotEqualTo("–");

            // Its data, in each form, downloaded with the token a plain link could not send.
            assertThat(cells.get(10)).isEqualTo("JSONL · CSV · links · Markdown · WARC");
            for (String form : List.of("CSV", "Markdown", "WARC")) {
                browser.findElement(By.cssSelector("tr[data-job='1'] span.data")).findElement(By.linkText(form)).click();
            }
            Path csv = downloads.resolve("crawl-1.csv");
            Path markdown = downloads.resolve("crawl-1-markdown.zip");
            Path warc = downloads.resolve("crawl-1.warc.gz");
            wait.until(d -> Files.exists(csv) && Files.exists(markdown) && Files.exists(warc));
            List<String> lines = Files.readAllLines(csv);
            assertThat(lines.get(0)).startsWith("url,");
            assertThat(lines).filteredOn(line -> line.startsWith("\"http")).hasSize(200); // rows: content spans lines
            try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(markdown.toFile())) {
                assertThat(zip.size()).isEqualTo(100);
            }
            try (WarcReader reader = new WarcReader(warc)) {
                assertThat(reader.records().filter(r -> r instanceof WarcResponse).count()).isEqualTo(100);
            }
            assertThat(browser.findElement(By.id("error")).getText()).isEmpty();

            Path shot = Path.of("target", "dashboard.png");
            Files.write(shot, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        } finally {
            browser.quit();
            serve.close();
        }
    }

    @Test
    void aContinuousJobsChangesShowAsTheyCome(@TempDir Path dir) throws Exception {
        ChildProcess serve = ChildProcess.start(Main.class.getName(), List.of("-Xmx512m"), List.of("serve", "--port=0",
                "--db=jdbc:h2:" + dir.resolve("db"), "--token=s3cret", "--no-pinning-watch"), ServeCommand.READY);
        WebDriver browser = browser();
        try (dev.loomcrawl.testkit.Http http = dev.loomcrawl.testkit.Http.local(CrashRecoveryTest.port(serve))) {
            WebDriverWait wait = continuousJobShown(serve, browser, http);

            // The job's first visits come as "new", then its revisits as they happen: the table grows live.
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("changes-section")));
            wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#changes tr.change-new")));
            wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#changes tr.change-unchanged")));
            assertThat(browser.findElement(By.id("changes-job")).getText()).isEqualTo("job 1, live");
            // A receiver that refuses its events is named on the job's row, with why
            wait.until(ExpectedConditions.textMatches(By.cssSelector("tr[data-job='1'] td:nth-child(9)"),
                    java.util.regex.Pattern.compile("webhook failing \\(\\d+ tries, [\\d,]+ events wait\\): answered HTTP 40\\d")));
            assertThat(browser.findElement(By.id("error")).getText()).isEmpty();
        } finally {
            browser.quit();
            serve.close();
        }
    }

    /**
     * The busiest politeness keys are listed; one is paused from its button, for every job (the job shows it waits
     * for it), and resumed.
     */
    @Test
    void aKeyIsPausedAndResumedFromItsButton(@TempDir Path dir) throws Exception {
        ChildProcess serve = ChildProcess.start(Main.class.getName(), List.of("-Xmx512m"), List.of("serve", "--port=0",
                "--db=jdbc:h2:" + dir.resolve("db"), "--token=s3cret", "--no-pinning-watch"), ServeCommand.READY);
        WebDriver browser = browser();
        try (dev.loomcrawl.testkit.Http http = dev.loomcrawl.testkit.Http.local(CrashRecoveryTest.port(serve))) {
            WebDriverWait wait = continuousJobShown(serve, browser, http);

            String key = wait.until(d -> d.findElement(By.cssSelector("#hosts tr[data-key]")).getAttribute("data-key"));
            WebElement pause = browser.findElement(By.cssSelector("#hosts tr[data-key='" + key + "'] button.pause"));
            // The page refreshes every second in place: the button found before a refresh is still the page's
            // after it (a click on a replaced one is lost, or throws StaleElementReferenceException).
            String shown = browser.findElement(By.id("server")).getText();
            wait.until(ExpectedConditions.not(ExpectedConditions.textToBe(By.id("server"), shown)));
            pause.click();
            wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#hosts tr.paused[data-key='" + key + "']")));
            // The job says what it waits for, beside its revisits
            wait.until(ExpectedConditions.textMatches(By.cssSelector("tr[data-job='1'] td:nth-child(9)"),
                    java.util.regex.Pattern.compile("waiting: " + java.util.regex.Pattern.quote(key) + " \\(paused by an operator, ")));
            assertThat(http.get("/hosts", "Authorization", "Bearer s3cret").json().get("settings").get(key)
                    .get("pausedUntil").isNull()).isFalse(); // set on the server, for every job

            wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("#hosts tr[data-key='" + key + "'] button.resume")))
                    .click();
            wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#hosts tr[data-key='" + key + "'] button.pause")));
            assertThat(http.get("/hosts", "Authorization", "Bearer s3cret").json().get("settings").has(key)).isFalse();
            assertThat(browser.findElement(By.id("error")).getText()).isEmpty();
        } finally {
            browser.quit();
            serve.close();
        }
    }

    /**
     * Starts a continuous job on two farm hosts through the API, with a webhook its receiver refuses (this server's
     * own port, where the hook has no route and no token), then opens the dashboard and gives the token.
     */
    private static WebDriverWait continuousJobShown(ChildProcess serve, WebDriver browser, dev.loomcrawl.testkit.Http http)
            throws Exception {
        String seeds = farm.seedUrls().stream().limit(2).map(u -> "\"" + u + "\"").collect(
                java.util.stream.Collectors.joining(","));
        String hook = "http://127.0.0.1:" + CrashRecoveryTest.port(serve) + "/hook";
        assertThat(http.post("/crawl", "{\"seeds\":[" + seeds + "],\"maxDepth\":1,"
                + "\"revisit\":{\"min\":\"PT1S\",\"max\":\"PT2S\"},\"webhook\":{\"url\":\"" + hook + "\",\"secret\":\"s\"}}",
                "Authorization", "Bearer s3cret").status()).isEqualTo(202);
        browser.get("http://127.0.0.1:" + CrashRecoveryTest.port(serve) + "/");
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token-input"))).sendKeys("s3cret");
        browser.findElement(By.cssSelector("#token-form button")).click();
        return wait;
    }
}
