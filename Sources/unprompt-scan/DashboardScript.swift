/// The page's only scripts, inline (allowed by their hash, and nothing else). The numbers are all in the HTML
/// already: with scripts off the page shows them as they were when it was made.
enum DashboardScript {
    /// Ticks every countdown (`<time data-until>`) once a second, from the moment the page was made (the
    /// body's `data-generated`) plus the time since it was loaded, in the page's own duration format.
    static let countdowns = """
        (function(){var made=+document.body.getAttribute("data-generated"),loaded=Date.now();\
        function span(ms){var s=Math.max(0,Math.floor(ms/1000)),d=Math.floor(s/86400),h=Math.floor(s%86400/3600),\
        m=Math.floor(s%3600/60);if(d>0)return h>0?d+"d "+h+"h":d+"d";if(h>0)return m>0?h+"h "+m+"m":h+"h";\
        if(m>0)return m+"m";return s+"s";}\
        function tick(){var now=made+(Date.now()-loaded);var all=document.querySelectorAll("[data-until]");\
        for(var i=0;i<all.length;i++){var left=+all[i].getAttribute("data-until")-now;\
        var text=left>0?"in "+span(left):"now";if(all[i].textContent!==text)all[i].textContent=text;}}\
        tick();setInterval(tick,1000);})();
        """

    /// The served page asks for the snapshot every 5 seconds: today's estimate updates in place, and any other
    /// change of the store (a scan, a reading, a new day) reloads the page.
    static let poll = """
        (function(){var seen=null;function key(s){return JSON.stringify([s.usage.day,s.usage.measuredAt,\
        s.usage.tokens,s.uses,s.limits,s.fiveHourWindows,s.days]);}\
        function poll(){fetch("snapshot.json",{cache:"no-store",credentials:"same-origin"}).then(function(r){\
        return r.ok?r.json():null;}).then(function(s){if(!s)return;var k=key(s);if(seen===null){seen=k;}\
        else if(k!==seen){location.reload();return;}var e=document.querySelector('[data-key="today.tokens"]');\
        if(e){e.setAttribute("value",String(s.usage.estimate));e.textContent=s.usage.estimate.toLocaleString("en-US");}\
        }).catch(function(){});}poll();setInterval(poll,5000);})();
        """
}
