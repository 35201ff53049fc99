__evidenceSearch("en/meta",{"v":1,"shards":2,"chunk":8,"docs":16});
