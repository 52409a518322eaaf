from django.contrib.auth import views as auth_views
from django.urls import path

from . import recall, views
from .protection import web as protection

urlpatterns = [
    path(
        "login/",
        auth_views.LoginView.as_view(authentication_form=protection.LoginForm),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", views.lobby, name="lobby"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/dealer/", views.dealer_console, name="dealer_console"),
    path("tables/<int:table_id>/dealer/log.json", views.dealer_log_json, name="dealer_log_json"),
    path("tables/<int:table_id>/recall.json", views.recall_json, name="recall_json"),
    path("rounds/mine/", recall.my_rounds, name="my_rounds"),
    path("rounds/<int:round_id>/", recall.round_detail, name="round_detail"),
    path("status/lag.json", views.lag_status, name="lag_status"),
    path("protection/status.json", protection.status, name="protection_status"),
    path("protection/reality-check/", protection.reality_check, name="protection_reality"),
    path("protection/unlock/", protection.unlock, name="protection_unlock"),
    path("protection/limits/", protection.limits_page, name="protection_limits"),
    path("responsible-gaming/", protection.responsible, name="responsible_gaming"),
]
