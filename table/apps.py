from django.apps import AppConfig


class TableConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "table"
    verbose_name = "Table games"

    def ready(self) -> None:
        from django.contrib.admin.models import LogEntry
        from django.contrib.auth import get_user_model
        from django.db.models.signals import m2m_changed, post_save, pre_save

        from .duties import install_guards, mirror_admin_log
        from .integrity import refuse_rename_in_play
        from .meters import refuse_relink_in_play
        from .models import ProgressiveMeter

        # Every change made in the admin goes into the append-only audit log too.
        post_save.connect(mirror_admin_log, sender=LogEntry, dispatch_uid="audit_admin_log")

        from django.contrib.auth.signals import user_logged_in, user_logged_out

        from .protection import web

        # Each login is a player session (§812a.9(a)(5)).
        user_logged_in.connect(web.logged_in, dispatch_uid="protection_login")
        user_logged_out.connect(web.logged_out, dispatch_uid="protection_logout")
        # Dealing and crediting stay apart however they would be combined.
        install_guards()
        # A successful login marks its browser as a known device (table/login_throttle.py).
        from django.contrib.auth.signals import user_logged_in

        from .login_throttle import remember_device

        user_logged_in.connect(remember_device, dispatch_uid="known_device")
        # A round's meters stay linked until it is settled or void (issue 23).
        pre_save.connect(
            refuse_rename_in_play,
            sender=get_user_model(),
            dispatch_uid="username_fixed_for_a_round",
        )
        m2m_changed.connect(
            refuse_relink_in_play,
            sender=ProgressiveMeter.tables.through,
            dispatch_uid="meters_fixed_for_a_round",
        )
