/** The command line: crawl, resume, jobs, export and serve; the lab's commands (demo, bench, mock-sites) by name. */
module dev.loomcrawl.cli {
    requires dev.loomcrawl.crawler;
    requires dev.loomcrawl.server;
    requires info.picocli;
    requires jdk.httpserver; // the site of the start-up cache's training crawl (AotTrainingCommand)

    opens dev.loomcrawl.cli to info.picocli; // the commands' options, read by reflection
}
