"""The HTML report of a tournament folder (``html_report``, its sections in ``report_sections``,
the template in ``templates/``): boards drawn as SVG (``board_svg``), games replayed through the
rules (``replay``) into per-ply viewer data (``replay_data``), kept between reports
(``replay_cache``)."""
